package pmns

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// cppOurs is our preprocessor's answer for a case in pmcpp's terms: its
// standard output, standard error and exit status.
func cppOurs(c pmnsCase) string {
	opts := caseOptions(c)
	out, cerr := preprocess([]byte(c.text), &cppConfig{
		top: caseFile, topDir: dirname(caseFile), sysDir: opts.SystemDir,
		allowShell: c.shell, open: opts.open,
	})
	status, stderr := 0, ""
	if cerr != nil {
		status, stderr = 1, cerr.Report()
	}
	return cppAnswer(out, stderr, status)
}

func cppAnswer(stdout []byte, stderr string, status int) string {
	return string(stdout) + "== stderr\n" + stderr + "== exit " + strconv.Itoa(status) + "\n"
}

// cppPCP runs the real pmcpp on a case, in a directory holding its files.
func cppPCP(t *testing.T, c pmnsCase) string {
	t.Helper()
	pmcpp := pcptest.NeedTool(t, "pmcpp")
	dir := t.TempDir()
	files := map[string]string{caseFile: c.text}
	for k, v := range c.more {
		files[k] = v
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(pmcpp, caseFile)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PCP_VAR_DIR=var")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	status := 0
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatal(err)
		}
		status = exit.ExitCode()
	}
	return cppAnswer(stdout.Bytes(), stderr.String(), status)
}

// cppCases are the cases pmcpp reads (the ones libpcp reads without it
// say nothing about pmcpp).
func cppCases() []pmnsCase {
	var out []pmnsCase
	for _, c := range pmnsCases {
		if c.mode != "nocpp" {
			out = append(out, c)
		}
	}
	return out
}

func TestCPPGolden(t *testing.T) {
	for _, c := range cppCases() {
		t.Run(c.name, func(t *testing.T) {
			golden(t, "testdata/golden/cpp/"+c.name+".golden", cppOurs(c), func() string {
				return cppPCP(t, c)
			})
		})
	}
}

func TestCPPLive(t *testing.T) {
	for _, c := range cppCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			want := cppPCP(t, c)
			if got := cppOurs(c); got != want {
				t.Errorf("differs from pmcpp:\n%s", diff(want, got))
			}
		})
	}
}

func TestCPPDefines(t *testing.T) {
	for _, tc := range []struct {
		defines []string
		text    string
		want    string
		err     string
	}{
		{[]string{"A=1", "B"}, "A B C\n", "# 1 \"<stdin>\"\n1  C\n", ""},
		{[]string{"A='x y'"}, "A\n", "# 1 \"<stdin>\"\nx y\n", ""},
		{[]string{"A=1", "A=2"}, "A\n", "", "pmcpp: <arg>[2]: Macro redefinition"},
		{[]string{"1A"}, "\n", "", "pmcpp: <arg>[1]: Illegal character in macro name"},
	} {
		out, cerr := preprocess([]byte(tc.text), &cppConfig{top: "<stdin>", defines: tc.defines})
		switch {
		case tc.err != "":
			if cerr == nil || cerr.Error() != tc.err {
				t.Errorf("%v: error %v, want %s", tc.defines, cerr, tc.err)
			}
		case cerr != nil:
			t.Errorf("%v: %v", tc.defines, cerr)
		case string(out) != tc.want:
			t.Errorf("%v: got %q, want %q", tc.defines, out, tc.want)
		}
	}
}

func TestShellDisabled(t *testing.T) {
	_, err := Parse(bytes.NewReader([]byte("#shell 'echo hi'\nroot {\n}\n")), Options{})
	if !errors.Is(err, ErrShellDisabled) {
		t.Fatalf("got %v, want ErrShellDisabled", err)
	}
}

func TestDirname(t *testing.T) {
	for in, want := range map[string]string{
		"root": ".", "/a/b": "/a", "/a/b/": "/a", "/a": "/", "/": "/", "a//b": "a", "./x": ".", "": ".",
	} {
		if got := dirname(in); got != want {
			t.Errorf("dirname(%q) = %q, want %q", in, got, want)
		}
	}
}
