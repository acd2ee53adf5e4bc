package pmns

import (
	"os"
	"path/filepath"
	"testing"
)

func TestVarDir(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "pcp.conf")
	if err := os.WriteFile(conf, []byte("# comment\nPCP_VAR_DIR_X=/no\nPCP_VAR_DIR='/from/conf'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PCP_CONF", conf)
	os.Unsetenv("PCP_VAR_DIR") // t.Setenv restores the environment afterwards
	t.Setenv("PMNS_DEFAULT", "")
	os.Unsetenv("PMNS_DEFAULT")
	if got := SystemDir(); got != "/from/conf/pmns" {
		t.Errorf("SystemDir from pcp.conf = %q", got)
	}
	if got := DefaultPath(""); got != "/from/conf/pmns/root" {
		t.Errorf("DefaultPath = %q", got)
	}
	t.Setenv("PCP_VAR_DIR", "/from/env")
	if got := SystemDir(); got != "/from/env/pmns" {
		t.Errorf("SystemDir from the environment = %q", got)
	}
	if got := DefaultPath("/some/root"); got != "/some/root" {
		t.Errorf("DefaultPath with PMNS_DEFAULT = %q", got)
	}
	t.Setenv("PCP_CONF", filepath.Join(t.TempDir(), "missing"))
	os.Unsetenv("PCP_VAR_DIR")
	if got := SystemDir(); got != "/var/lib/pcp/pmns" {
		t.Errorf("SystemDir without pcp.conf = %q", got)
	}
}
