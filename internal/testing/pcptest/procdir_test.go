package pcptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// TestProcessDir: a directory of a process that has ended goes at the
// next call; this process's and a live one's stay.
func TestProcessDir(t *testing.T) {
	prefix := "gopcp-pcptest-procdir-test-"
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	stale, err := os.MkdirTemp("", prefix+strconv.Itoa(gone.Process.Pid)+"-")
	if err != nil {
		t.Fatal(err)
	}
	live, err := os.MkdirTemp("", prefix+"1-") // init never ends
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(live)
	mine, err := ProcessDir(prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(mine)
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		os.RemoveAll(stale)
		t.Errorf("the directory of ended process %d is still there: %v", gone.Process.Pid, err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the directory of live process 1: %v", err)
	}
	if filepath.Dir(mine) != filepath.Clean(os.TempDir()) {
		t.Errorf("ProcessDir made %s outside %s", mine, os.TempDir())
	}
	again, err := ProcessDir(prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(again)
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("this process's own directory went: %v", err)
	}
}

// TestRemoveProcessDirs: the directories ProcessDir made in this process
// go, with what they hold, and a second call has nothing left to do.
func TestRemoveProcessDirs(t *testing.T) {
	// What other tests built (GoCommand's programs) stays for them.
	made.Lock()
	kept := made.dirs
	made.dirs = nil
	made.Unlock()
	defer func() {
		made.Lock()
		made.dirs = append(made.dirs, kept...)
		made.Unlock()
	}()
	prefix := "gopcp-pcptest-remove-test-"
	var dirs []string
	for range 2 {
		d, err := ProcessDir(prefix)
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(d)
		if err := os.WriteFile(filepath.Join(d, "built"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	RemoveProcessDirs()
	for _, d := range dirs {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("%s is still there: %v", d, err)
		}
	}
	RemoveProcessDirs()
}
