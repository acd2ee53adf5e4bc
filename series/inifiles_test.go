package series

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestIniFiles: the files pmIniFileSetup reads for a name, by libpcp_web's
// rules, and ReadIniFiles' merge of them (later files win, missing and
// broken ones no error).
func TestIniFiles(t *testing.T) {
	for _, c := range []struct {
		name, sysconf, home string
		want                []string
	}{
		{"/etc/x.conf", "/etc/pcp", "/root", []string{"/etc/x.conf"}},
		{"pmproxy", "/etc/pcp", "/root", []string{"/etc/pcp/pmproxy/pmproxy.conf", "/root/.pmproxy.conf", "/root/.pcp/pmproxy.conf", "./pmproxy.conf"}},
		{"conf", "", "", []string{"./conf.conf"}},
		{"a/b", "/s", "", []string{"/s/a/b/a/b.conf", "./a/b.conf"}},
	} {
		if got := IniFiles(c.name, c.sysconf, c.home); !reflect.DeepEqual(got, c.want) {
			t.Errorf("IniFiles(%q, %q, %q) = %q, want %q", c.name, c.sysconf, c.home, got, c.want)
		}
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(a, []byte("[redis]\nservers = a:1\nenabled = false\n"), 0o644)
	os.WriteFile(b, []byte("[redis]\nservers = b:2\nno equals here\n[pmseries]\nx = 1\n"), 0o644)
	got := ReadIniFiles([]string{a, filepath.Join(dir, "missing"), b})
	want := Config{"redis.servers": "b:2", "redis.enabled": "false", "pmseries.x": "1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ReadIniFiles = %v, want %v", got, want)
	}
}
