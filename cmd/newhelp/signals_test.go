package main

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestSignalsLikePCP sends every signal that ends a process to PCP's
// newhelp and ours, each waiting to open its help text (a FIFO no one
// writes): PCP's installs no handlers, so each ends it by its default
// action, where the Go runtime would have let ours survive SIGUSR1,
// SIGALRM, SIGPIPE and others.
func TestSignalsLikePCP(t *testing.T) {
	theirs, ours := pcptest.NeedTool(t, "newhelp"), pcptest.GoCommand(t, ".")
	dir := t.TempDir()
	fifo := filepath.Join(dir, "help")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	clitest.CompareSignals(t, theirs, ours, clitest.Signals, []clitest.SignalCase{
		{Name: "opening its input", Args: []string{"-n", "testdata/root", "-o", filepath.Join(dir, "out"), fifo},
			Ready: clitest.InOpen},
	})
}
