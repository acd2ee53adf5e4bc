package archive

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestVolumeWindowSlides reads a plain volume through its window as a
// reader does, forwards record by record, backwards and at random:
// every read gives the file's bytes, and a forward read that runs past
// the window's end keeps what the window held from there on, so that
// each byte comes from the file once on a forward pass (records of 41 KB
// through the 64 KB window were read a window each: 1.56 times the
// volume).
func TestVolumeWindowSlides(t *testing.T) {
	content := make([]byte, 1<<20+12345)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range content {
		content[i] = byte(rng.IntN(256))
	}
	path := filepath.Join(t.TempDir(), "vol")
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v := &volume{f: f, size: len(content), pool: &windowPool{}}
	check := func(off, n int) {
		t.Helper()
		b := v.at(off, n)
		if off+n > len(content) {
			if b != nil {
				t.Fatalf("at(%d, %d) past the end gave %d bytes", off, n, len(b))
			}
			return
		}
		if !bytes.Equal(b, content[off:off+n]) {
			t.Fatalf("at(%d, %d): wrong bytes", off, n)
		}
	}
	// forwards, records of 41 KB (more than half the window) and others
	for _, rec := range []int{41 << 10, 100, 70 << 10, 3 << 10} {
		v.win, v.winOff, v.read = nil, 0, 0
		off := 0
		for ; off+rec <= len(content); off += rec {
			check(off, rec)
		}
		if v.read > int64(off+windowSize) {
			t.Errorf("records of %d bytes: %d bytes read for %d", rec, v.read, off)
		}
	}
	// backwards and at random
	for off := len(content) - 5000; off >= 0; off -= 5000 {
		check(off, 5000)
	}
	for range 2000 {
		check(rng.IntN(len(content)), rng.IntN(100<<10))
	}
}
