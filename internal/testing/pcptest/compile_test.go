package pcptest

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompile builds a program against libpcp and runs it: it prints the
// version pmconfig reports.
func TestCompile(t *testing.T) {
	pmconfig := NeedTool(t, "pmconfig")
	bin := filepath.Join(t.TempDir(), "version")
	Compile(t, C{Src: "testdata/version.c", Out: bin, CFlags: []string{"-O1"}})
	got := strings.TrimSpace(Run(t, "", bin))
	out, err := exec.Command(pmconfig, "-L", "pcp_version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimPrefix(strings.TrimSpace(string(out)), "pcp_version="); got != want {
		t.Errorf("harness printed %q, pmconfig says %q", got, want)
	}
}

// TestCompileFailure: where gcc and the headers are, a program that does
// not compile fails the test rather than skipping it.
func TestCompileFailure(t *testing.T) {
	NeedCompiler(t)
	src := filepath.Join(t.TempDir(), "bad.c")
	writeFile(t, src, "int main(void) { return undeclared; }\n")
	ft := &fakeT{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Compile(ft, C{Src: src, Out: filepath.Join(t.TempDir(), "bad")})
	}()
	<-done
	if !ft.fatal {
		t.Error("a program that does not compile did not fail the test")
	}
}
