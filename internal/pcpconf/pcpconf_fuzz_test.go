package pcpconf

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// FuzzParse reads fuzzed pcp.conf text with Parse and with libpcp (through
// PCP's pmconfig) and requires the same value for every variable Parse
// found, and for the environment's variable, which wins over the file.
// Parse must never fail on text, and what it takes from the text is no
// larger than the text.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Add("PCP_ENV=file\n")
	pmconfig := pcptest.NeedTool(f, "pmconfig")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text string) {
		conf := filepath.Join(dir, "pcp.conf")
		if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		env := map[string]string{"PCP_CONF": conf, "PCP_ENV": "environment"}
		vars, err := Parse(strings.NewReader(text), lookupIn(env))
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		size := 0
		for k, v := range vars {
			if _, set := env[k]; !set {
				size += len(k) + len(v)
			}
		}
		if size > len(text) {
			t.Fatalf("variables hold %d bytes from %d bytes of text", size, len(text))
		}
		names := make([]string, 0, len(vars)+1)
		for k := range vars {
			names = append(names, k)
		}
		slices.Sort(names)
		if len(names) > 50 {
			names = names[:50]
		}
		names = append(names, "PCP_ENV")
		cmd := exec.Command(pmconfig, append([]string{"--"}, names...)...)
		cmd.Env = []string{"PCP_CONF=" + conf, "PCP_ENV=environment"}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("pmconfig: %v", err)
		}
		lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(lines) != len(names) {
			t.Fatalf("pmconfig printed %d lines for %d names:\n%s", len(lines), len(names), out)
		}
		for i, name := range names {
			want, ok := strings.CutPrefix(lines[i], name+"=")
			if !ok {
				t.Fatalf("pmconfig line %q is not for %q", lines[i], name)
			}
			got := vars[name]
			if name == "PCP_ENV" && got == "" {
				got = env[name]
			}
			if got != want {
				t.Errorf("%.40q: Parse has %.80q, libpcp %.80q", name, got, want)
			}
		}
	})
}
