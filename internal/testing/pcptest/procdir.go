package pcptest

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ProcessDir makes a temporary directory for what a test binary builds
// once and keeps until it exits (a harness, a command), named with prefix
// and the process id. A test binary has no exit hook to remove it, so each
// call first removes the directories of prefix whose process has gone.
func ProcessDir(prefix string) (string, error) {
	sweepProcessDirs(prefix)
	return os.MkdirTemp("", prefix+strconv.Itoa(os.Getpid())+"-")
}

// sweepProcessDirs removes the directories of prefix left by processes
// that have ended.
func sweepProcessDirs(prefix string) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), prefix+"*"))
	for _, d := range dirs {
		rest := strings.TrimPrefix(filepath.Base(d), prefix)
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			os.RemoveAll(d)
		}
	}
}
