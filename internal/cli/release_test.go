package cli

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLongReplay(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, size int64) {
		t.Helper()
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	write("small.meta", 14<<10)
	write("small.0", 340<<10)
	write("small.index", 272)
	write("big.meta", 400<<10)
	write("big.0", longReplayBytes)
	write("edge.meta", longReplayBytes/2)
	write("edge.0", longReplayBytes/2)
	write("below.meta", longReplayBytes/2)
	write("below.0", longReplayBytes/2-1)
	write("xz.meta", 1<<10)
	write("xz.0.xz", 1<<10)
	write("vol1.meta", 1<<10)
	write("vol1.1", 1<<10)
	if err := os.Mkdir(filepath.Join(dir, "dirmeta.meta"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("dirmeta.0", 1<<10)
	for _, c := range []struct {
		name string
		want bool
	}{
		{"small", false},
		{"small.0", false},
		{"small.meta", false},
		{"small.index", false},
		{"big", true},
		{"big.0", true},
		{"edge", true},
		{"below", false},
		{"xz", true},        // compressed volume: not sized, as before
		{"vol1", true},      // no volume 0: not sized
		{"dirmeta", true},   // not a regular file
		{"missing", true},   // opening reports it
		{"small,big", true}, // a list
		{"", true},          // nothing named
		{"small.", true},    // an empty suffix is not a volume's
		{"small.0x", true},  // nor one with a letter in it
	} {
		name := c.name
		if name != "" {
			name = filepath.Join(dir, name)
		}
		if got := LongReplay(name); got != c.want {
			t.Errorf("LongReplay(%q) = %v, want %v", c.name, got, c.want)
		}
	}
	// a directory of archives is a source of its own: taken as long
	if !LongReplay(dir) {
		t.Errorf("LongReplay(directory) = false")
	}
}
