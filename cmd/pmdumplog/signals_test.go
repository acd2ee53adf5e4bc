package main

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestSignalsAgainstPCP sends every signal that ends a process to PCP's
// pmdumplog and ours while each opens an archive that is a FIFO, then
// has each write a dump to a pipe whose reader has gone (both die of
// SIGPIPE): each must end as PCP's does.
func TestSignalsAgainstPCP(t *testing.T) {
	pcpBin, ours := pcptest.NeedTool(t, "pmdumplog"), pcptest.GoCommand(t, ".")
	clitest.CompareSignals(t, pcpBin, ours, clitest.Signals, []clitest.SignalCase{
		{Name: "archive a FIFO", Args: []string{"-a", clitest.FIFOArchive(t)}, Ready: clitest.InOpen},
	})
	clitest.CompareReaderGone(t, pcpBin, ours, []clitest.ReaderGoneCase{
		{Name: "archive", Args: []string{"-a", clitest.QAArchive(t, "20180102")}},
	})
}
