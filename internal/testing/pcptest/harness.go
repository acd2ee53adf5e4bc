package pcptest

import (
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
	NeedCompiler(t)
	dir, err := ProcessDir("gopcp-harness-")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, strings.TrimSuffix(filepath.Base(src), ".c"))
	Compile(t, C{Src: abs, Out: bin, CFlags: cflags, Libs: []string{"-lpcp", "-lm"}})
	built[key] = bin
	return bin
}
