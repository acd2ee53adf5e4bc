package main

import (
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pdu"
)

// TestSignalsAgainstPCP sends every signal that ends a process to PCP's
// pmprobe and ours while each waits for a pmcd that never answers and
// while each opens an archive that is a FIFO; then each writes to a pipe
// whose reader has gone: from a host (libpcp ignores SIGPIPE once it
// talks to pmcd, so both write on and exit 0) and from an archive (both
// die of SIGPIPE).
func TestSignalsAgainstPCP(t *testing.T) {
	pcpBin, ours := pcptest.NeedTool(t, "pmprobe"), pcptest.GoCommand(t, ".")
	bed := testbed.StartPMCD(t, testbed.Options{})
	stall := clitest.NewStall(t)
	archive := clitest.QAArchive(t, "20180102")
	clitest.CompareSignals(t, pcpBin, ours, clitest.Signals, []clitest.SignalCase{
		{Name: "pmcd never answers", Args: []string{"-h", stall.Host, "-v", "sample.long.one"}, Stall: stall,
			Env: []string{"PMCD_CONNECT_TIMEOUT=3600"}},
		{Name: "archive a FIFO", Args: []string{"-a", clitest.FIFOArchive(t), "-v"}, Ready: clitest.InOpen},
	})
	clitest.CompareReaderGone(t, pcpBin, ours, []clitest.ReaderGoneCase{
		{Name: "host", Args: []string{"-h", bed.Host(), "-v", "sample"}},
		{Name: "archive", Args: []string{"-a", archive, "-v"}},
	})
}

// TestHandshakeSignalsLikePCP: a pmcd that asks for credentials (CREDS_REQD, so SASL over TCP) in its
// greeting and then never answers leaves the client waiting past the
// first PDU it sent (its CREDS): libpcp ignores SIGPIPE from that PDU on,
// so PCP's pmprobe survives SIGPIPE there, where it dies of it waiting
// for the greeting.
func TestHandshakeSignalsLikePCP(t *testing.T) {
	pcpBin, ours := pcptest.NeedTool(t, "pmprobe"), pcptest.GoCommand(t, ".")
	g := clitest.NewGreeter(t, pdu.FlagCredsReqd)
	clitest.CompareSignals(t, pcpBin, ours, []syscall.Signal{syscall.SIGPIPE, syscall.SIGUSR1, syscall.SIGINT},
		[]clitest.SignalCase{
			{Name: "authentication never answered", Args: []string{"-h", g.Host, "-v", "sample.long.one"},
				Env: []string{"PMCD_REQUEST_TIMEOUT=3600"}, Ready: g.Sent, Reset: g.Reset},
		})
}
