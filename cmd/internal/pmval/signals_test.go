package pmval

import (
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestSignalsAgainstPCP sends every signal that ends a process to PCP's
// pmval and ours where each waits: in a paced replay, between samples of
// a live host, with SIGINT and SIGQUIT ignored as a shell's background
// command has them, and connecting to a pmcd that never answers. Each
// must end (or live on) as PCP's does, having written the same.
func TestSignalsAgainstPCP(t *testing.T) {
	pcpBin, ours := pcptest.NeedTool(t, "pmval"), pcptest.GoCommand(t, "../../pmval")
	bed := testbed.StartPMCD(t, testbed.Options{})
	stall := clitest.NewStall(t)
	value := clitest.Matches(`^ +1$`)
	cases := []clitest.SignalCase{
		{Name: "paced replay", Args: []string{"-a", clitest.QAArchive(t, "20180102"), "-d", "-t", "1h", "kernel.all.load"},
			Ready: clitest.Matches(`^[0-9:.]{12} `)},
		{Name: "live", Args: []string{"-h", bed.Host(), "-t", "1h", "sample.long.one"}, Ready: value},
		{Name: "live, INT and QUIT ignored", Args: []string{"-h", bed.Host(), "-t", "1h", "sample.long.one"}, Ready: value,
			Ignore: []syscall.Signal{syscall.SIGINT, syscall.SIGQUIT}},
		{Name: "pmcd never answers", Args: []string{"-h", stall.Host, "sample.long.one"}, Stall: stall,
			Env: []string{"PMCD_CONNECT_TIMEOUT=3600"}},
		{Name: "archive a FIFO", Args: []string{"-a", clitest.FIFOArchive(t), "kernel.all.load"}, Ready: clitest.InOpen},
	}
	clitest.CompareSignals(t, pcpBin, ours, clitest.Signals, cases)
	// a live pmval writes on to a reader that has gone (libpcp ignores
	// SIGPIPE once it talks to pmcd) and ends after its samples
	clitest.CompareReaderGone(t, pcpBin, ours, []clitest.ReaderGoneCase{
		{Name: "live", Args: []string{"-h", bed.Host(), "-t", "0.001", "-s", "2000", "sample.long.one"}},
	})
}
