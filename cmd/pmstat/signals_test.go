package main

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestSignalsAgainstPCP sends every signal that ends a process to PCP's
// pmstat and ours while each waits: for its first interval from a live
// host (the heading written), for a pmcd that never answers, and opening
// an archive that is a FIFO; then each writes to a pipe whose reader has
// gone (libpcp ignores SIGPIPE once it talks to pmcd: both write on).
func TestSignalsAgainstPCP(t *testing.T) {
	pcpBin, ours := pcptest.NeedTool(t, "pmstat"), pcptest.GoCommand(t, ".")
	bed := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), testbed.LinuxAgent()}})
	stall := clitest.NewStall(t)
	clitest.CompareSignals(t, pcpBin, ours, clitest.Signals, []clitest.SignalCase{
		{Name: "live", Args: []string{"-h", bed.Host(), "-t", "1h"}, Ready: clitest.Lines(3), Mask: clitest.Times},
		{Name: "pmcd never answers", Args: []string{"-h", stall.Host}, Stall: stall,
			Env: []string{"PMCD_CONNECT_TIMEOUT=3600"}},
		{Name: "archive a FIFO", Args: []string{"-a", clitest.FIFOArchive(t)}, Ready: clitest.InOpen},
	})
	clitest.CompareReaderGone(t, pcpBin, ours, []clitest.ReaderGoneCase{
		{Name: "live", Args: []string{"-h", bed.Host(), "-t", "0.05", "-s", "120"}},
	})
}
