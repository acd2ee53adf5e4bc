package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// linkedBuild builds a tool with agents/all linked into it, as the tools
// were built before pmdalocal: an overlay adds a file importing it.
func linkedBuild(t *testing.T, tool string) string {
	t.Helper()
	dir, err := filepath.Abs("../" + tool)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	src := filepath.Join(tmp, "agents.go")
	if err := os.WriteFile(src, []byte("package main\n\nimport _ \"github.com/gopcp/gopcp/agents/all\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ov := filepath.Join(tmp, "overlay.json")
	js := `{"Replace":{"` + filepath.Join(dir, "zz_linked_agents.go") + `":"` + src + `"}}`
	if err := os.WriteFile(ov, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	return pcptest.GoCommandWith(t, "../"+tool, pcptest.Build{Env: []string{"GOFLAGS=-overlay=" + ov}})
}

// clock masks the times of day pmval prints and the agents' log stamps.
var clock = regexp.MustCompile(`\d\d:\d\d:\d\d(\.\d+)?|\d{4}/\d\d/\d\d`)

type toolRun struct {
	stdout, stderr string
	code           int
}

func runTool(t *testing.T, bin string, env []string, args ...string) toolRun {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	code := 0
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	// The tool's name in its messages is the file's, the same in both.
	return toolRun{clock.ReplaceAllString(out.String(), "TIME"), clock.ReplaceAllString(errb.String(), "TIME"), code}
}

// TestToolsAsLinked runs the tools' local contexts in pmdalocal and
// compares what they print with the same tools built with the agents
// linked in, as they were before, whose output the tools' own tests
// compare with PCP's: the same output, warnings, errors and exit codes.
func TestToolsAsLinked(t *testing.T) {
	companion := pcptest.GoCommand(t, ".")
	// the agents' files and ports private to the test
	tmp := t.TempDir()
	if err := os.Mkdir(filepath.Join(tmp, "mmv"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PATH="+filepath.Dir(companion)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"PCP_TMP_DIR="+tmp, "PCP_TRACE_PORT=0")
	sample := []string{"-L", "-K", "clear", "-K", "add,29,/var/lib/pcp/pmdas/sample/pmda_sample.so,sample_init"}
	ns := filepath.Join(t.TempDir(), "root")
	if err := os.WriteFile(ns, []byte("root {\n sample 29:*:*\n hinv 60:*:*\n kernel 60:*:*\n mmv 70:*:*\n trace 10:*:*\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	withSample := func(args ...string) []string { return slices.Concat(sample, []string{"-n", ns}, args) }
	cases := []struct {
		tool string
		args []string
	}{
		{"pminfo", withSample("-dfmtTl", "sample.long", "sample.colour", "sample.string.hullo", "sample.bin")},
		{"pminfo", withSample("-F", "sample.needprofile", "sample.bin")},
		{"pminfo", withSample("-v", "sample.bad", "sample.long")},
		{"pminfo", withSample("sample.secret", "sample.ghosts")},
		{"pminfo", withSample("-mdf", "sample.secret.foo.bar.max.redirect", "sample.secret.bar", "sample.secret.nosuch")},
		{"pminfo", withSample("-M", "sample.secret.foo")},
		{"pminfo", []string{"-L", "-K", "clear", "-n", ns, "-f", "sample.long.one"}},
		{"pminfo", []string{"-L", "-K", "add,29", "sample"}},
		{"pminfo", []string{"-L", "-K", "clear", "-K", "add,60,pmda_linux.so,linux_init", "-n", ns, "-d", "hinv.ncpu", "kernel.all.load"}},
		{"pminfo", []string{"-L", "-K", "clear", "-K", "add,60,pmda_linux.so,linux_init", "-n", ns, "-f", "hinv.ncpu"}},
		{"pminfo", []string{"-L", "-K", "clear", "-K", "add,70,pmda_mmv.so,mmv_init", "-n", ns, "-f", "mmv"}},
		{"pminfo", []string{"-L", "-K", "clear", "-K", "add,10,pmda_trace.so,trace_init", "-n", ns, "-df", "trace.control"}},
		// the proc agent's names are PCP's namespace's (none, without PCP)
		{"pminfo", []string{"-L", "-K", "clear", "-K", "add,3,pmda_proc.so,proc_init", "-d", "proc.nprocs"}},
		{"pminfo", []string{"-L", "-K", "clear", "-K", "add,29,/nowhere/pmda_x.so,nosuch_init", "-n", ns, "sample"}},
		{"pmprobe", withSample("-v", "sample.long", "sample.colour", "sample.bad.fetch.again")},
		{"pmprobe", withSample("-I", "sample.colour", "sample.bin")},
		{"pmval", withSample("-s", "3", "-t", "0.01", "sample.colour")},
		{"pmval", withSample("-s", "2", "-t", "0.01", "-i", "bin-100,bin-900", "sample.bin")},
		{"pmval", withSample("-s", "1", "sample.nosuch")},
		{"pmstore", withSample("sample.write_me", "42")},
		{"pmstore", withSample("-i", "bin-100", "sample.bin", "7")},
		{"pmstore", withSample("sample.colour", "5")},
	}
	linked, apart := map[string]string{}, map[string]string{}
	for _, c := range cases {
		if linked[c.tool] == "" {
			linked[c.tool] = linkedBuild(t, c.tool)
			apart[c.tool] = pcptest.GoCommand(t, "../"+c.tool)
		}
	}
	for _, c := range cases {
		t.Run(c.tool+" "+strings.Join(c.args, " "), func(t *testing.T) {
			want := runTool(t, linked[c.tool], env, c.args...)
			got := runTool(t, apart[c.tool], env, c.args...)
			if got != want {
				t.Errorf("agents in %s:\n%+v\nlinked:\n%+v", filepath.Base(companion), got, want)
			}
		})
	}
}
