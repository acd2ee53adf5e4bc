package pmapi

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/internal/cli/clitest"
	"github.com/gopcp/gopcp/pcp"
)

// FuzzDamagedArchive spoils QA archive gap (a data volume or metadata
// or index cut short, or a byte of the data volume changed) and reads the
// copy in every mode: nothing may panic, every failure carries a PCP
// error code, and when only the data volume was cut, interpolation gives
// the undamaged archive's results up to where it stops: every record
// before the damage is used.
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
	f.Fuzz(func(t *testing.T, kind uint8, off uint32, x uint8) {
		once.Do(func() { want = walk(t, src, "interp", time.Second, 40, metrics) })
		dir := t.TempDir()
		base := filepath.Join(dir, "d")
		for suffix, b := range files {
			b = append([]byte(nil), b...)
			switch {
			case kind%4 == 0 && suffix == ".0":
				b = b[:min(int(off), len(b))]
			case kind%4 == 1 && suffix == ".0" && len(b) > 0:
				b[int(off)%len(b)] ^= x
			case kind%4 == 2 && suffix == ".meta":
				b = b[:min(int(off), len(b))]
			case kind%4 == 3 && suffix == ".index":
				b = b[:min(int(off), len(b))]
			}
			if err := os.WriteFile(base+suffix, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		c, err := NewArchiveContext(context.Background(), base)
		if err != nil {
			if archive.Code(err) == pcp.ErrGeneric {
				t.Fatalf("open: %v has no PCP code", err)
			}
			return
		}
		c.Close()
		for _, args := range damagedWalks(damagedSources["gap"]) {
			out, _ := walkDamaged(t, base, args)
			if strings.Contains(out, "ERR -1\n") {
				t.Fatalf("%v: an error without a PCP code:\n%s", args, out)
			}
		}
		if kind%4 != 0 {
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
