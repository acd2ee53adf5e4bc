package main

import (
	"testing"

	"github.com/gopcp/gopcp/cmd/internal/pmval"
	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// sampleDSO and sampleRoot give PCP's pmevent the sample agent's DSO in
// a local context; ours runs the sample agent registered under the same
// entry point.
const (
	sampleDSO  = "add,29,/var/lib/pcp/pmdas/sample/pmda_sample.so,sample_init"
	sampleRoot = "/var/lib/pcp/pmdas/sample/root"
)

// TestLiveAgainstPCP compares pmevent with PCP's pmevent (PCP's pmval
// under that name; cmd/internal/pmval's TestEventArchivesAgainstPCP runs
// both names over the QA archives with event records) on a private pmcd of PCP's with PCP's sample agent,
// each side on a pmcd of its own so that both see the agent's records
// from the start of its cycle: legacy and high-resolution records, with
// and without an instance domain, -i, a filter stored first (-x), the
// zones, -r, a local context (-L, -K), a window live, a window's end, usage and errors.
func TestLiveAgainstPCP(t *testing.T) {
	t.Setenv("PCP_DERIVED_CONFIG", "")
	bed := testbed.StartPMCD(t, testbed.Options{Env: []string{"PCP_DERIVED_CONFIG="}})
	args := func(a ...string) []string { return append([]string{"-t", "0.05"}, a...) }
	clitest.Compare(t, "pmevent", pmval.Run, bed, []clitest.Case{
		{Name: "records", Fresh: true, Args: args("-s", "3", "sample.event.records"), Mask: clitest.Times},
		{Name: "highres", Fresh: true, Args: args("-s", "3", "sample.event.highres_records"), Mask: clitest.Times},
		{Name: "no indom", Fresh: true, Args: args("-s", "2", "sample.event.no_indom_records"), Mask: clitest.Times},
		{Name: "instance", Fresh: true, Args: args("-s", "3", "-i", "fungus", "sample.event.records"), Mask: clitest.Times},
		{Name: "filter", Fresh: true, Args: args("-s", "2", "-x", "fungus", "sample.event.records"), Mask: clitest.Times},
		{Name: "raw zone", Fresh: true, Args: args("-s", "2", "-r", "-z", "sample.event.records"), Mask: clitest.Times},
		{Name: "timezone", Fresh: true, Args: args("-s", "2", "-Z", "UTC", "-X", "sample.event.highres_records"), Mask: clitest.Times},
		{Name: "window end", Fresh: true, Args: []string{"-t", "1", "-T", "1.9", "sample.event.records"}, Mask: clitest.Times},
		{Name: "local", Fresh: true, NoHost: true, Mask: clitest.Times,
			Args: args("-L", "-K", "clear", "-K", sampleDSO, "-n", sampleRoot, "-s", "2", "sample.event.records")},
		{Name: "window live", Args: []string{"-S", "@10:00", "sample.event.records"}},
		{Name: "help", NoHost: true, Args: []string{"--help"}},
		{Name: "bad option", NoHost: true, Args: []string{"-y", "x"}},
		{Name: "no metric", Args: nil},
		{Name: "unknown metric", Args: args("-s", "1", "sample.event.nosuch")},
	})
}
