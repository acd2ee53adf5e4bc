package main

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestSignalsAgainstPCP sends every signal that ends a process to PCP's
// pmstore and ours while each waits for a pmcd that never answers: each
// must end (or live on) as PCP's does.
func TestSignalsAgainstPCP(t *testing.T) {
	pcpBin, ours := pcptest.NeedTool(t, "pmstore"), pcptest.GoCommand(t, ".")
	stall := clitest.NewStall(t)
	clitest.CompareSignals(t, pcpBin, ours, clitest.Signals, []clitest.SignalCase{
		{Name: "pmcd never answers", Args: []string{"-h", stall.Host, "sample.write_me", "1"}, Stall: stall,
			Env: []string{"PMCD_CONNECT_TIMEOUT=3600"}},
	})
}
