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
	"time"
)

// made are the directories ProcessDir made in this process, for
// RemoveProcessDirs.
var made struct {
	sync.Mutex
	dirs []string
}

// ProcessDir makes a temporary directory for what a test binary builds
// once and keeps until it exits (a harness, a command), named with prefix
// and the process id, under SharedTemp so that PCP's pmcd may start what
// is built there. The package's TestMain removes it when every test
// has run (Main, or testbed.Main); a binary that ended before that (a
// crash, a timeout's kill) leaves it, so each call first removes the
// directories of prefix whose process has gone.
func ProcessDir(prefix string) (string, error) {
	tmp, err := SharedTemp()
	if err != nil {
		return "", err
	}
	legacy.Do(func() { sweepLegacyDirs(tmp, time.Now()) })
	sweepProcessDirs(tmp, prefix)
	dir, err := os.MkdirTemp(tmp, prefix+strconv.Itoa(os.Getpid())+"-")
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
func sweepProcessDirs(tmp, prefix string) {
	dirs, _ := filepath.Glob(filepath.Join(tmp, prefix+"*"))
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

// legacy runs sweepLegacyDirs once a process.
var legacy sync.Once

// legacyPIDPrefixes are the names, followed by a process id, of
// directories that earlier versions of the tests made and that nothing
// makes now, so that no sweep of ProcessDir's would reach them.
var legacyPIDPrefixes = []string{"gopcp-gopmcd-", "gopcp-pmlogger-test-"}

// legacyTempPrefix is the name, followed by os.MkdirTemp's digits, of a
// directory the pmdumplog tests once made; it names no process, so it is
// taken as left over only when older than legacyAge.
const (
	legacyTempPrefix = "pmdumplog-test"
	legacyAge        = 24 * time.Hour
)

// sweepLegacyDirs removes, under tmp, the directories earlier versions of
// the tests left behind: those named by a process once that process has
// ended, the others once older than legacyAge at now. Symbolic links are
// left alone.
func sweepLegacyDirs(tmp string, now time.Time) {
	for _, p := range legacyPIDPrefixes {
		sweepProcessDirs(tmp, p)
	}
	dirs, _ := filepath.Glob(filepath.Join(tmp, legacyTempPrefix+"*"))
	for _, d := range dirs {
		rest := strings.TrimPrefix(filepath.Base(d), legacyTempPrefix)
		if rest == "" || strings.Trim(rest, "0123456789") != "" {
			continue
		}
		st, err := os.Lstat(d)
		if err != nil || !st.IsDir() || now.Sub(st.ModTime()) < legacyAge {
			continue
		}
		os.RemoveAll(d)
	}
}
