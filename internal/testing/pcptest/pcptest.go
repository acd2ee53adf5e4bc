// Package pcptest holds helpers for tests that check gopcp against the real
// PCP installed on the machine: the rule for when its absence skips or fails
// a test, and compiling small C harnesses against libpcp whose output is the
// reference a test compares with.
package pcptest

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// Required reports whether the environment demands real PCP (CI sets
// GOPCP_REQUIRE_PCP=1), in which case its absence fails tests instead of
// skipping them.
func Required() bool { return os.Getenv("GOPCP_REQUIRE_PCP") == "1" }

// Missing skips or fails t, following Required, with the reason given.
func Missing(t testing.TB, why string) {
	t.Helper()
	if Required() {
		t.Fatalf("real PCP is required (GOPCP_REQUIRE_PCP=1) but %s", why)
	}
	t.Skipf("real PCP not available: %s", why)
}

// NeedTool returns the path of a PCP program, or skips/fails t.
func NeedTool(t testing.TB, name string) string {
	t.Helper()
	for _, dir := range []string{"", "/usr/libexec/pcp/bin/", "/usr/lib/pcp/bin/"} {
		if dir == "" {
			if p, err := exec.LookPath(name); err == nil {
				return p
			}
			continue
		}
		if p := dir + name; isExecutable(p) {
			return p
		}
	}
	Missing(t, name+" is not installed")
	return ""
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

var (
	buildMu sync.Mutex
	built   = map[string]string{}
)

// Harness compiles the C program at src (a path relative to the calling
// test's package directory) against libpcp and returns the binary's path.
// A harness is built once per test binary. Without gcc or libpcp's headers
// the test is skipped or failed as Missing says.
func Harness(t testing.TB, src string) string {
	t.Helper()
	return HarnessWith(t, src, "-O1")
}

// Run runs a program with the given standard input and returns its
// standard output; a non-zero exit fails t with its standard error.
func Run(t testing.TB, stdin string, prog string, args ...string) string {
	t.Helper()
	return string(output(t, strings.NewReader(stdin), prog, args...))
}

// Filter runs prog, found in $PATH, on in as Run does and returns its
// standard output: for the compressors (xz, gzip, bzip2) tests put
// archive files through. A program that is not installed skips t; they
// are not PCP's, so GOPCP_REQUIRE_PCP does not require them.
func Filter(t testing.TB, in []byte, prog string, args ...string) []byte {
	t.Helper()
	path, err := exec.LookPath(prog)
	if err != nil {
		t.Skip(prog, "is not installed")
	}
	return output(t, bytes.NewReader(in), path, args...)
}

// output runs prog with stdin and returns its standard output, failing
// t with its standard error when it does not exit 0.
func output(t testing.TB, stdin io.Reader, prog string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(prog, args...)
	cmd.Stdin = stdin
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", prog, args, err, stderr.String())
	}
	return out
}
