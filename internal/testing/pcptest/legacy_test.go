package pcptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestSweepLegacyDirs: the directories earlier versions of the tests
// left under names ProcessDir no longer makes go once their process has
// ended (the names with a process id) or once a day old (the names
// without); a live process's and a recent one's stay, and so does a
// symbolic link of such a name.
func TestSweepLegacyDirs(t *testing.T) {
	tmp := t.TempDir()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead := strconv.Itoa(gone.Process.Pid)
	now := time.Now()
	day := 24 * time.Hour
	for _, c := range []struct {
		name string
		age  time.Duration
		goes bool
	}{
		{"gopcp-gopmcd-" + dead + "-123", 0, true},
		{"gopcp-gopmcd-1-123", 2 * day, false}, // init never ends
		{"gopcp-pmlogger-test-" + dead + "-9", 0, true},
		{"gopcp-pmlogger-test-1-9", 0, false},
		{"pmdumplog-test123456", 2 * day, true},
		{"pmdumplog-test654321", time.Hour, false},
		{"pmdumplog-testing", 2 * day, false}, // not MkdirTemp's digits
	} {
		d := filepath.Join(tmp, c.name)
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "f"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(d, now.Add(-c.age), now.Add(-c.age)); err != nil {
			t.Fatal(err)
		}
		defer func(d string, goes bool) {
			_, err := os.Stat(d)
			if gone := os.IsNotExist(err); gone != goes {
				t.Errorf("%s: removed %v, want %v", filepath.Base(d), gone, goes)
			}
		}(d, c.goes)
	}
	target := t.TempDir()
	link := filepath.Join(tmp, "pmdumplog-test777")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	old := now.Add(-2 * day)
	if err := os.Chtimes(target, old, old); err != nil {
		t.Fatal(err)
	}
	sweepLegacyDirs(tmp, now)
	if _, err := os.Lstat(link); err != nil {
		t.Errorf("a symbolic link was removed: %v", err)
	}
	if _, err := os.Stat(target); err != nil {
		t.Errorf("a symbolic link's target was removed: %v", err)
	}
}
