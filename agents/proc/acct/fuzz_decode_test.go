package acct

import (
	"os"
	"strings"
	"testing"
	"time"
)

// FuzzDecodeRecords appends arbitrary bytes to the accounting file in
// whole writes and refreshes after each with the clock moving on, so
// that every record the kernel could have written is decoded (FuzzRecords'
// seeds write parts of records and never complete one). Whatever the
// records hold, refreshes and fetches end without a panic, the ring keeps
// at most its size, and each process listed has a pid other than 0 and a
// command name of at most acct_v3's 16 bytes without a NUL. (A pid of 2^31
// or more is a negative instance, -1 PM_IN_NULL among them, as in
// pmdaproc, which takes ac_pid as a C int; only the kernel writes the
// file, and its pids stay below 2^22.)
func FuzzDecodeRecords(f *testing.F) {
	end := uint32(1_700_000_000 - 10)
	f.Add(append(rec{pid: 100, ppid: 1, comm: "make", btime: end - 5, etime: 500, tty: 0x8801, utime: 0x2001, flag: 0x11, exit: 2}.bytes(),
		rec{pid: 101, comm: "cc", btime: end, etime: 100}.bytes()...), uint8(1))
	f.Add(append(rec{pid: 7, comm: "sixteen-bytes-xx", btime: end}.bytes(), rec{pid: 8, version: 2}.bytes()...), uint8(2))
	f.Add(rec{pid: 0xffffffff, comm: "neg", btime: end + 60, etime: 0}.bytes(), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, rounds uint8) {
		b := newBed(t)
		fh, err := os.OpenFile(b.path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		n := int(rounds%4) + 1
		for i := range n {
			// the data in n writes, each ending at a record's end
			// but the last, which may leave a part
			from, to := len(data)*i/n/recordSize*recordSize, len(data)*(i+1)/n/recordSize*recordSize
			if i == n-1 {
				to = len(data)
			}
			fh.Write(data[from:to])
			b.now = b.now.Add(time.Minute)
			b.s.Refresh()
			insts := b.s.Instances()
			if len(insts) > ringSize {
				t.Fatalf("%d instances", len(insts))
			}
			for _, in := range insts {
				if in.ID == 0 || len(in.Name) > 16 || strings.ContainsRune(in.Name, 0) {
					t.Fatalf("instance %d %q", in.ID, in.Name)
				}
			}
			for _, m := range b.s.metrics {
				for _, in := range insts {
					b.s.Fetch(&m, in.ID)
				}
			}
		}
	})
}
