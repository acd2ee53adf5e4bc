package pmapi

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/pcp"
)

// FuzzDamagedArchive spoils QA archive gap (a data volume or metadata
// or index cut short, a byte of the data volume or the metadata changed,
// or a word of a temporal index entry rewritten: its volume, offsets or
// time) and reads the copy in every mode, each read bounded in time and
// memory: nothing may panic or run on, every failure carries a PCP error
// code, and when only the data volume was cut, interpolation gives the
// undamaged archive's results up to where it stops: every record before
// the damage is used.
func FuzzDamagedArchive(f *testing.F) {
	src := filepath.Join(clitest.QAArchives, "gap")
	files := map[string][]byte{}
	for _, suffix := range []string{".0", ".meta", ".index"} {
		b, err := os.ReadFile(src + suffix)
		if err != nil {
			f.Skipf("QA archive gap: %v", err)
		}
		files[suffix] = b
	}
	metrics := damagedSources["gap"].metrics
	interp := []string{"interp", "1000000000", "40"}
	var (
		once sync.Once
		want string
	)
	f.Add(uint8(0), uint32(5000), uint8(0))
	f.Add(uint8(0), uint32(4460), uint8(0))
	f.Add(uint8(1), uint32(132), uint8(73))
	f.Add(uint8(1), uint32(262), uint8(88))
	f.Add(uint8(2), uint32(900), uint8(0))
	f.Add(uint8(3), uint32(100), uint8(0))
	f.Add(uint8(4), uint32(8), uint8(7))     // the first entry's volume
	f.Add(uint8(4), uint32(48), uint8(0xff)) // the third's volume, far past the last
	f.Add(uint8(4), uint32(36), uint8(9))    // the second's data offset
	f.Add(uint8(4), uint32(60), uint8(1))    // the fourth's time
	f.Add(uint8(5), uint32(140), uint8(0x40))
	f.Fuzz(func(t *testing.T, kind uint8, off uint32, x uint8) {
		once.Do(func() { want = walk(t, src, "interp", time.Second, 40, metrics) })
		dir := t.TempDir()
		base := filepath.Join(dir, "d")
		for suffix, b := range files {
			b = append([]byte(nil), b...)
			switch {
			case kind%6 == 4 && suffix == ".index":
				// a 32-bit word of the entries after the 132-byte
				// label: x small names a volume, else a value spread
				// over the word's range
				if at := 132 + int(off)%max(1, len(b)-132)&^3; at+4 <= len(b) {
					binary.BigEndian.PutUint32(b[at:], uint32(x)*uint32(x)*uint32(x)*uint32(x)*260)
					if x < 16 {
						binary.BigEndian.PutUint32(b[at:], uint32(x))
					}
				}
			case kind%6 == 5 && suffix == ".meta" && len(b) > 0:
				b[int(off)%len(b)] ^= x
			case kind%6 == 0 && suffix == ".0":
				b = b[:min(int(off), len(b))]
			case kind%6 == 1 && suffix == ".0" && len(b) > 0:
				b[int(off)%len(b)] ^= x
			case kind%6 == 2 && suffix == ".meta":
				b = b[:min(int(off), len(b))]
			case kind%6 == 3 && suffix == ".index":
				b = b[:min(int(off), len(b))]
			}
			if err := os.WriteFile(base+suffix, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var err error
		clitest.Bounded(t, "open", clitest.BoundTime, clitest.BoundHeap, func() {
			var c *ArchiveContext
			if c, err = NewArchiveContext(context.Background(), base); err == nil {
				c.Close()
			}
		})
		if err != nil {
			if archive.Code(err) == pcp.ErrGeneric {
				t.Fatalf("open: %v has no PCP code", err)
			}
			return
		}
		for _, args := range damagedWalks(damagedSources["gap"]) {
			var out string
			clitest.Bounded(t, fmt.Sprint(args), clitest.BoundTime, clitest.BoundHeap, func() {
				out, _ = walkDamaged(t, base, args)
			})
			if strings.Contains(out, "ERR -1\n") {
				t.Fatalf("%v: an error without a PCP code:\n%s", args, out)
			}
		}
		if kind%6 != 0 {
			return
		}
		got, _ := walkDamaged(t, base, interp)
		if i := strings.Index(got, "ERR "); i >= 0 {
			got = got[:i]
		}
		if !strings.HasPrefix(want, got) {
			t.Fatalf("data volume cut at %d: interpolation differs from the whole archive's\n%s", off, clitest.Diff(want, got))
		}
	})
}
