package pcpconf

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// pmconfig runs PCP's pmconfig with only the given environment, so the
// test's own PCP_* variables cannot leak in.
func pmconfig(t *testing.T, env []string, args ...string) map[string]string {
	t.Helper()
	path := pcptest.NeedTool(t, "pmconfig")
	cmd := exec.Command(path, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pmconfig %v: %v", args, err)
	}
	vars := make(map[string]string)
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		name, value, _ := strings.Cut(sc.Text(), "=")
		vars[name] = value
	}
	return vars
}

func lookupIn(env map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		v, ok := env[name]
		return v, ok
	}
}

// TestParseConfMatchesPCP parses pcp.conf files the way the test bed does
// and compares every variable with what libpcp makes of the same file, as
// reported by pmconfig.
func TestParseConfMatchesPCP(t *testing.T) {
	t.Parallel()
	installed := Path(os.LookupEnv)
	if _, err := os.Stat(installed); err != nil {
		pcptest.Missing(t, err.Error())
	}
	quoting, err := filepath.Abs("testdata/quoting.conf")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		env  map[string]string // environment overrides
	}{
		{"installed", installed, nil},
		{"quoting", quoting, nil},
		{"environment wins", quoting, map[string]string{"PCP_A": "from env", "PCP_B": `"kept quotes"`}},
		{"empty environment value wins", quoting, map[string]string{"PCP_H": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := os.Open(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got, err := Parse(f, lookupIn(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			env := []string{"PCP_CONF=" + tt.path}
			for k, v := range tt.env {
				env = append(env, k+"="+v)
			}
			// pmconfig -a shows file values of variables the environment
			// does not set; naming variables shows their effective values.
			want := pmconfig(t, env, "-a")
			var named []string
			for k := range tt.env {
				named = append(named, k)
			}
			if len(named) > 0 {
				for k, v := range pmconfig(t, env, named...) {
					want[k] = v
				}
			}
			for k, w := range want {
				if g, ok := got[k]; !ok || g != w {
					t.Errorf("%s: got %q (present %v), libpcp has %q", k, g, ok, w)
				}
			}
			for k, g := range got {
				if _, ok := want[k]; !ok {
					t.Errorf("%s=%q parsed, but libpcp does not define it", k, g)
				}
			}
		})
	}
}

func TestConfPath(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"default", nil, DefaultPath},
		{"PCP_CONF", map[string]string{"PCP_CONF": "/x/pcp.conf"}, "/x/pcp.conf"},
		{"PCP_DIR", map[string]string{"PCP_DIR": "/opt/pcp"}, "/opt/pcp/etc/pcp.conf"},
		{"PCP_CONF beats PCP_DIR", map[string]string{"PCP_CONF": "/x/pcp.conf", "PCP_DIR": "/opt/pcp"}, "/x/pcp.conf"},
	}
	for _, tt := range tests {
		if got := Path(lookupIn(tt.env)); got != tt.want {
			t.Errorf("%s: Path = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestGetCachedFollowsFileAndEnv: Get parses pcp.conf once while it is
// unchanged, reads it again when it changes, and the environment (set or
// unset after a parse) still wins over the file.
func TestGetCachedFollowsFileAndEnv(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pcp.conf")
	write := func(text string, mod time.Time) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(path, mod, mod)
	}
	t0 := time.Now().Add(-time.Hour)
	write("PCP_X_TEST_A=one\nPCP_X_TEST_B=file\n", t0)
	t.Setenv("PCP_CONF", path)
	t.Setenv("PCP_X_TEST_B", "env")
	if v, _ := Get("PCP_X_TEST_A"); v != "one" {
		t.Fatalf("A = %q, want one", v)
	}
	if v, _ := Get("PCP_X_TEST_B"); v != "env" {
		t.Errorf("B = %q, want the environment's", v)
	}
	os.Unsetenv("PCP_X_TEST_B")
	if v, _ := Get("PCP_X_TEST_B"); v != "file" {
		t.Errorf("B after unsetting = %q, want the file's", v)
	}
	write("PCP_X_TEST_A=two\n", t0.Add(time.Minute))
	if v, _ := Get("PCP_X_TEST_A"); v != "two" {
		t.Errorf("A after the file changed = %q, want two", v)
	}
}
