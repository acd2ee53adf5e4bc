package derive

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// loopDir makes a configuration directory holding one metric and links
// back to itself.
func loopDir(t *testing.T) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.conf"), []byte("loop.a = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"self1", "self2", "self3"} {
		if err := os.Symlink(".", filepath.Join(dir, l)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestConfigDirectoryLoop: a configuration directory holding links back
// to itself is not walked round the loop. Where errors stop the load
// (pmLoadDerivedConfig) the loop fails with ELOOP, the error PCP's
// libpcp ends with once the links are too deep; where they are skipped
// (the default configuration) the loop is skipped and its files load
// once, where libpcp would try each of the 3^40 paths.
func TestConfigDirectoryLoop(t *testing.T) {
	dir := loopDir(t)
	if n, err := NewRegistry().LoadConfig(dir); !errors.Is(err, pcp.Error(-int32(syscall.ELOOP))) {
		t.Errorf("LoadConfig = %d, %v; want ELOOP", n, err)
	}
	r := NewRegistry()
	if n, err := r.loadPath(dir, true); err != nil || n != 1 {
		t.Errorf("loadPath(recover) = %d, %v; want 1 metric", n, err)
	}
}
