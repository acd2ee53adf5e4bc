package main

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestSignalsAgainstPCP sends every signal that ends a process to PCP's
// pmlogcheck and ours while each opens an archive that is a FIFO: each
// must end (or live on) as PCP's does.
func TestSignalsAgainstPCP(t *testing.T) {
	pcpBin, ours := pcptest.NeedTool(t, "pmlogcheck"), pcptest.GoCommand(t, ".")
	clitest.CompareSignals(t, pcpBin, ours, clitest.Signals, []clitest.SignalCase{
		{Name: "archive a FIFO", Args: []string{clitest.FIFOArchive(t)}, Ready: clitest.InOpen},
	})
}
