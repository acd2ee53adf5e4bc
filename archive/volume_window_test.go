package archive

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/pcp"
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

// TestMetaWindowHandedOn: Open gives the metadata loader's window to the
// archive's pool, and the first data volume read takes it instead of a
// window of its own.
func TestMetaWindowHandedOn(t *testing.T) {
	a, err := Open(testArchive(t, t.TempDir(), Version3, 6), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cap(a.windows.spare) < metaChunk {
		t.Fatalf("pool holds %d bytes after Open, want the loader's window", cap(a.windows.spare))
	}
	var res pcp.Result
	if err := a.NewReader().Fetch(&res); err != nil {
		t.Fatal(err)
	}
	if a.windows.spare != nil {
		t.Fatal("the volume read took a new window, not the loader's")
	}
}
