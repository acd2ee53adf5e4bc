package sample

import (
	"os"
	"path/filepath"
	"testing"
)

// TestExists: the check for unavailFile finds a file that exists and
// not one that does not, without allocating.
func TestExists(t *testing.T) {
	dir := t.TempDir()
	there := filepath.Join(dir, "there")
	if err := os.WriteFile(there, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want bool
	}{{there, true}, {filepath.Join(dir, "not-there"), false}, {dir, true}} {
		if got := exists([]byte(c.path + "\x00")); got != c.want {
			t.Errorf("exists(%q) = %v, want %v", c.path, got, c.want)
		}
	}
	p := []byte(there + "\x00")
	if n := testing.AllocsPerRun(10, func() { exists(p) }); n != 0 {
		t.Errorf("%v allocations per check, want 0", n)
	}
}
