package pcptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// HarnessWith is Harness with the given gcc flags (Harness uses -O1;
// benchmarks that time libpcp next to gopcp build with -O2). Each (source,
// flags) pair is built once per test binary.
func HarnessWith(t testing.TB, src string, cflags ...string) string {
	t.Helper()
	abs, err := filepath.Abs(src)
	if err != nil {
		t.Fatal(err)
	}
	key := abs + "\x00" + strings.Join(cflags, "\x00")
	buildMu.Lock()
	defer buildMu.Unlock()
	if bin, ok := built[key]; ok {
		return bin
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		Missing(t, "gcc is not installed")
	}
	if _, err := os.Stat("/usr/include/pcp/pmapi.h"); err != nil {
		Missing(t, "libpcp3-dev is not installed")
	}
	dir, err := os.MkdirTemp("", "gopcp-harness-")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, strings.TrimSuffix(filepath.Base(src), ".c"))
	args := append(append([]string{}, cflags...), "-o", bin, abs, "-lpcp", "-lm")
	out, err := exec.Command("gcc", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("cannot compile harness %s: %v\n%s", src, err, out)
	}
	built[key] = bin
	return bin
}
