package pcptest

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// made are the directories ProcessDir made in this process, for
// RemoveProcessDirs.
var made struct {
	sync.Mutex
	dirs []string
}

// ProcessDir makes a temporary directory for what a test binary builds
// once and keeps until it exits (a harness, a command), named with prefix
// and the process id. The package's TestMain removes it when every test
// has run (Main, or testbed.Main); a binary that ended before that (a
// crash, a timeout's kill) leaves it, so each call first removes the
// directories of prefix whose process has gone.
func ProcessDir(prefix string) (string, error) {
	sweepProcessDirs(prefix)
	dir, err := os.MkdirTemp("", prefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", err
	}
	made.Lock()
	made.dirs = append(made.dirs, dir)
	made.Unlock()
	return dir, nil
}

// Main runs a test binary's tests, then removes the directories
// ProcessDir made for them. A package whose tests build harnesses or
// commands calls it from TestMain: os.Exit(pcptest.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	RemoveProcessDirs()
	return code
}

// RemoveProcessDirs removes the directories ProcessDir made in this
// process, for a TestMain that does more than Main; it must run after
// every test has ended.
func RemoveProcessDirs() {
	made.Lock()
	defer made.Unlock()
	for _, d := range made.dirs {
		os.RemoveAll(d)
	}
	made.dirs = nil
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
