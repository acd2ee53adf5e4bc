package main

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestSignalsAgainstPCP sends every signal that ends a process to PCP's
// mmvdump and ours while each opens a file that is a FIFO: each must end
// (or live on) as PCP's does.
func TestSignalsAgainstPCP(t *testing.T) {
	pcpBin := filepath.Join(testbed.Need(t).Var("PCP_PMDAS_DIR"), "mmv", "mmvdump")
	ours := pcptest.GoCommand(t, ".")
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	clitest.CompareSignals(t, pcpBin, ours, clitest.Signals, []clitest.SignalCase{
		{Name: "file a FIFO", Args: []string{fifo}, Ready: clitest.InOpen},
	})
}
