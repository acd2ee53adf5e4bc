package pcptest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSearchableByAll: a directory others may search, under ones they
// may, is open; one without others' x bit, or under one, is not; links
// are followed to what they name.
func TestSearchableByAll(t *testing.T) {
	base := t.TempDir()
	closed := filepath.Join(base, "closed")
	inner := filepath.Join(closed, "inner")
	if err := os.MkdirAll(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(closed, 0o700); err != nil {
		t.Fatal(err)
	}
	toOpen := filepath.Join(base, "to-usr")
	if err := os.Symlink("/usr", toOpen); err != nil {
		t.Fatal(err)
	}
	toClosed := filepath.Join(base, "to-inner")
	if err := os.Symlink(inner, toClosed); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dir  string
		want bool
	}{
		{"/", true},
		{"/usr/bin", true},
		{toOpen, true},
		{closed, false},
		{inner, false},
		{toClosed, false},
		{filepath.Join(base, "missing"), false},
	} {
		if got := searchableByAll(c.dir); got != c.want {
			t.Errorf("searchableByAll(%s) = %v, want %v", c.dir, got, c.want)
		}
	}
}

// TestSettleSharedTemp: $TMPDIR is kept when it is open or the process
// is not root; a closed one as root gives the fallback when that is open,
// else an error.
func TestSettleSharedTemp(t *testing.T) {
	closed := filepath.Join(t.TempDir(), "closed")
	if err := os.Mkdir(closed, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tmp, fallback string
		asRoot        bool
		want          string
		err           bool
	}{
		{"/usr", "/", true, "/usr", false},
		{closed, "/", false, closed, false},
		{closed, "/", true, "/", false},
		{closed, closed, true, closed, true},
	} {
		got, err := settleSharedTemp(c.tmp, c.fallback, c.asRoot)
		if got != c.want || (err != nil) != c.err {
			t.Errorf("settleSharedTemp(%s, %s, root %v) = %s, %v; want %s, error %v", c.tmp, c.fallback, c.asRoot, got, err, c.want, c.err)
		}
	}
}
