package archive

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestXZVolumeByBlocks reads an archive whose volume is an .xz file of
// many small blocks: opening it and reading its first record decodes
// the first block alone (libpcp decodes no more), and every record,
// forwards and backwards, including those lying across blocks, reads as
// from the plain volume.
func TestXZVolumeByBlocks(t *testing.T) {
	xzProg, err := exec.LookPath("xz")
	if err != nil {
		t.Skip("xz is not installed")
	}
	plain := testArchive(t, t.TempDir(), Version3, 400)
	zdir := t.TempDir()
	packed := testArchive(t, zdir, Version3, 400)
	vol := packed + ".0"
	out, err := exec.Command(xzProg, "-c", "--block-size=1000", vol).Output()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(vol+".xz", out, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(vol); err != nil {
		t.Fatal(err)
	}

	a, err := Open(packed, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	z := a.xzs[0]
	if z == nil || len(z.x.blocks) < 10 {
		t.Fatalf("volume not read by blocks: %+v", z)
	}
	r := a.NewReader()
	var res pcp.Result
	if err := r.Fetch(&res); err != nil {
		t.Fatal(err)
	}
	if z.decoded != 1 {
		t.Errorf("open and first record decoded %d blocks of %d, want 1", z.decoded, len(z.x.blocks))
	}
	r.Close()

	p, err := Open(plain, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, m := range []Mode{Forward, Backward} {
		want, got := printAll(t, p, m), printAll(t, a, m)
		if want != got {
			t.Errorf("mode %d: records differ from the plain volume's", m)
		}
		if len(want) < 1000 {
			t.Errorf("mode %d: only %d bytes of records read", m, len(want))
		}
	}
	if len(z.cache) > xzCacheBlocks {
		t.Errorf("%d blocks cached, at most %d", len(z.cache), xzCacheBlocks)
	}
}

// printAll prints every record read in direction m from the start (or
// the end).
func printAll(t *testing.T, a *Archive, m Mode) string {
	t.Helper()
	r := a.NewReader()
	defer r.Close()
	if m == Backward {
		end, err := a.End()
		if err != nil {
			t.Fatal(err)
		}
		r.SetMode(Backward, end)
	}
	var b bytes.Buffer
	var res pcp.Result
	for {
		err := r.Fetch(&res)
		if errors.Is(err, pcp.ErrEOL) {
			return b.String()
		}
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%v %d", res.Timestamp, len(res.Sets))
		for _, s := range res.Sets {
			fmt.Fprintf(&b, " %v:%v", s.PMID, s.Values)
		}
		b.WriteByte('\n')
	}
}
