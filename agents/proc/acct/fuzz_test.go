package acct

import (
	"os"
	"testing"
)

// FuzzRecords: whatever is appended to the accounting file, refreshes and
// fetches end without a panic and keep at most the ring's processes.
func FuzzRecords(f *testing.F) {
	f.Add(rec{pid: 5, comm: "x", btime: 1_700_000_000}.bytes(), uint8(1))
	f.Add(append(rec{pid: 6, version: 2}.bytes(), 1, 2, 3), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, rounds uint8) {
		b := newBed(t)
		fh, err := os.OpenFile(b.path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		for i := 0; i < int(rounds%8)+1; i++ {
			part := data
			if n := len(data); n > 0 {
				part = data[:(i*37)%n+1]
			}
			fh.Write(part)
			b.s.Refresh()
			insts := b.s.Instances()
			if len(insts) > ringSize || len(b.s.procs) > ringSize {
				t.Fatalf("%d instances, %d records", len(insts), len(b.s.procs))
			}
			for _, m := range b.s.metrics {
				for _, in := range insts {
					b.s.Fetch(&m, in.ID)
				}
			}
		}
	})
}
