// Package pcptest holds helpers for tests that check gopcp against the real
// PCP installed on the machine: the rule for when its absence skips or fails
// a test, and compiling small C harnesses against libpcp whose output is the
// reference a test compares with.
package pcptest

import (
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
	cmd := exec.Command(prog, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", prog, args, err, stderr.String())
	}
	return string(out)
}
