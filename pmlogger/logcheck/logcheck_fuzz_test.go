package logcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzCheck damages copies of QA archives of both versions (a file cut
// short, or bytes of it changed) and checks them: the check ends with
// pmlogcheck's exit status 0 or 1, says the same twice, and writes no
// more than a bounded number of lines for the records the files can
// hold.
func FuzzCheck(f *testing.F) {
	f.Add(uint8(0), uint8(0), uint32(5000), []byte{0x80})
	f.Add(uint8(1), uint8(1), uint32(200), []byte{})
	f.Add(uint8(2), uint8(2), uint32(40), []byte{0xff, 0xff})
	f.Add(uint8(3), uint8(0), uint32(0), []byte{1})
	f.Fuzz(func(t *testing.T, which, file uint8, at uint32, xor []byte) {
		name := damageArchives[int(which)%len(damageArchives)]
		suffix := []string{".0", ".meta", ".index"}[int(file)%3]
		dir := t.TempDir()
		base := copyArchive(t, name, dir)
		p := base + suffix
		b, err := os.ReadFile(p)
		if err != nil {
			return // this archive has no such file
		}
		off := int(at) % (len(b) + 1)
		if len(xor) == 0 {
			b = b[:off]
		} else {
			for i, x := range xor {
				if off+i < len(b) {
					b[off+i] ^= x
				}
			}
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		size := 0
		for _, s := range []string{".0", ".meta", ".index"} {
			if st, err := os.Stat(base + s); err == nil {
				size += int(st.Size())
			}
		}
		var out1, out2 strings.Builder
		sts := Check(base, &out1, Options{Verbose: 1, Loc: time.UTC})
		if sts != 0 && sts != 1 {
			t.Fatalf("exit status %d", sts)
		}
		if Check(base, &out2, Options{Verbose: 1, Loc: time.UTC}) != sts || out1.String() != out2.String() {
			t.Fatalf("two checks differ:\n%s\n%s", out1.String(), out2.String())
		}
		// A record is at least 12 bytes; each gives a few lines at most.
		if lines := strings.Count(out1.String(), "\n"); lines > 64+size/12*4 {
			t.Fatalf("%d lines for %d bytes of %s", lines, size, filepath.Base(name))
		}
	})
}
