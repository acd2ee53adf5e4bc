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
	// Each check asks the system again: the file going, then coming
	// back, is seen at the next check.
	p := []byte(there + "\x00")
	if err := os.Remove(there); err != nil {
		t.Fatal(err)
	}
	if exists(p) {
		t.Error("exists after the file was removed")
	}
	if err := os.WriteFile(there, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if !exists(p) {
		t.Error("not exists after the file came back")
	}
	if n := testing.AllocsPerRun(10, func() { exists(p) }); n != 0 {
		t.Errorf("%v allocations per check, want 0", n)
	}
}
