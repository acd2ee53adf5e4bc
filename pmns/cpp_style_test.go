package pmns

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// styleCases are inputs for pmcpp -rs, the form pmlogger runs its
// configuration through; "inc" is a file they may include.
var styleCases = []struct{ name, text string }{
	{"refs", "%include \"inc\"\nlog on %freq { %{X}.one %X.ten a.%%X X %_u %{_u} %{X %{ %}x %9 %X_y%X }\n"},
	{"comments", "# kept /* not a comment\n%define A \"1\"\n/* %A */ #%A\n"},
	{"ifdef", "%include \"inc\"\n%ifdef X\na\n%else\nb\n%endif\n%ifndef X\nc\n%endif\n"},
	{"nested", "%ifdef X\n%ifdef X\n"},
	{"missing", "%include \"nonexistent\"\n"},
	{"undef", "%include \"inc\"\n%undef X\n%X %freq\n"},
	{"shell", "%shell \"echo %%hi\"\n"},
	{"hash", "#define X 1\n#include \"inc\"\nX\n"},
	{"unterminated", "%define A \"x\n"},
	{"noendif", "%ifdef A\n"},
}

const styleInc = "%define freq \"1 minute\"\n%define X sample.long\n%define _u 1\n"

func TestShellStyleAgainstPCP(t *testing.T) {
	pmcpp := pcptest.NeedTool(t, "pmcpp")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "inc"), []byte(styleInc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range styleCases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name+".conf")
			if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(pmcpp, "-rs", path)
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
			want := cppAnswer(stdout.Bytes(), stderr.String(), status)

			out, err := Preprocess([]byte(c.text), PreprocessOptions{Name: path, ShellStyle: true, Restrict: true, AllowShell: true})
			report, code := "", 0
			if err != nil {
				var cerr *CPPError
				if !errors.As(err, &cerr) {
					t.Fatalf("error %v is not a *CPPError", err)
				}
				report, code = cerr.Report(), 1
			}
			if got := cppAnswer(out, report, code); got != want {
				t.Errorf("differs from pmcpp -rs:\npmcpp:\n%s\nours:\n%s", want, got)
			}
		})
	}
}

func FuzzPreprocessShellStyle(f *testing.F) {
	for _, c := range styleCases {
		f.Add([]byte(c.text))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		cfg := &cppConfig{top: "<stdin>", shellStyle: true, restrict: true,
			open: func(string) (io.Reader, error) { return nil, os.ErrNotExist }}
		preprocess(src, cfg)
	})
}
