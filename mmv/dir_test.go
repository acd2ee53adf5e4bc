package mmv

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestDefaultDir: PCP_TMP_DIR from the environment wins; else pcp.conf's
// (here one named by PCP_CONF); neither is an error.
func TestDefaultDir(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "pcp.conf")
	os.WriteFile(conf, []byte("PCP_TMP_DIR=/from/conf\n"), 0o644)
	t.Setenv("PCP_CONF", conf)
	t.Setenv("PCP_TMP_DIR", "/from/env")
	if d, err := DefaultDir(); err != nil || d != "/from/env/mmv" {
		t.Errorf("environment: %q %v", d, err)
	}
	os.Unsetenv("PCP_TMP_DIR")
	if d, err := DefaultDir(); err != nil || d != "/from/conf/mmv" {
		t.Errorf("pcp.conf: %q %v", d, err)
	}
	os.WriteFile(conf, []byte("PCP_VAR_DIR=/x\n"), 0o644)
	if _, err := DefaultDir(); !errors.Is(err, ErrInvalid) {
		t.Errorf("neither: %v", err)
	}
}
