package pcptest

import (
	"os"
	"strings"
	"syscall"
	"testing"
)

// NoCores keeps the programs a test kills with SIGXFSZ from writing a
// core anywhere, a file or a pipe to the system's collector: a soft
// RLIMIT_CORE of 1, inherited, is below any core's size and is the
// value the kernel takes as "none" for a pipe. It reports whether that
// could be set.
func NoCores(t testing.TB) bool {
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_CORE, &old); err != nil || old.Max < 1 {
		// a hard limit of 0: no core file, but a pipe takes one
		b, _ := os.ReadFile("/proc/sys/kernel/core_pattern")
		return err == nil && !strings.HasPrefix(string(b), "|")
	}
	lim := syscall.Rlimit{Cur: 1, Max: old.Max}
	if err := syscall.Setrlimit(syscall.RLIMIT_CORE, &lim); err != nil {
		return false
	}
	t.Cleanup(func() { syscall.Setrlimit(syscall.RLIMIT_CORE, &old) })
	return true
}
