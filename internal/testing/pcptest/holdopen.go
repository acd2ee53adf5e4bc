package pcptest

import (
	"os"
	"os/exec"
	"testing"
)

// HoldOpen starts a process (sleep) that holds path open, for writing
// unless read is set, until the test ends, and returns its pid: another
// live process with the file open, as the daemons' file-safety tests need
// it (a log another daemon writes, a pid file's owner).
func HoldOpen(t testing.TB, path string, read bool) int {
	t.Helper()
	flag := os.O_WRONLY | os.O_APPEND
	if read {
		flag = os.O_RDONLY
	}
	f, err := os.OpenFile(path, flag, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command("sleep", "600")
	cmd.ExtraFiles = []*os.File{f}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd.Process.Pid
}
