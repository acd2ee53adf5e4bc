package main

import (
	"testing"

	"github.com/gopcp/gopcp/cmd/internal/pmval"
	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestLiveAgainstPCP compares pmevent with PCP's pmevent (PCP's pmval
// under that name) on a private pmcd of PCP's with PCP's sample agent,
// each side on a pmcd of its own so that both see the agent's records
// from the start of its cycle: legacy and high-resolution records, with
// and without an instance domain, -i, a filter stored first (-x), the
// zones, -r, a window's end, usage and errors.
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
		{Name: "help", NoHost: true, Args: []string{"--help"}},
		{Name: "bad option", NoHost: true, Args: []string{"-y", "x"}},
		{Name: "no metric", Args: nil},
		{Name: "unknown metric", Args: args("-s", "1", "sample.event.nosuch")},
	})
}

// TestArchivesAgainstPCP compares pmevent -a with PCP's on the QA
// archives holding event records.
func TestArchivesAgainstPCP(t *testing.T) {
	var cases []clitest.Case
	for _, name := range []string{"eventrec", "eventrec-old"} {
		arch := clitest.QAArchive(t, name)
		a := func(args ...string) []string { return append([]string{"-a", arch}, args...) }
		cases = append(cases,
			clitest.Case{Name: name + " records", Args: a("sample.event.records")},
			clitest.Case{Name: name + " highres", Args: a("-t", "0.5", "sample.event.highres_records")},
			clitest.Case{Name: name + " as logged", Args: a("-U", arch, "sample.event.records")},
			clitest.Case{Name: name + " instance", Args: a("-i", "fungus", "-s", "4", "sample.event.records")},
			clitest.Case{Name: name + " window", Args: a("-S", "+1", "-T", "+5", "-O", "+2", "-z", "sample.event.no_indom_records")},
			clitest.Case{Name: name + " align", Args: a("-A", "1sec", "-Z", "Australia/Melbourne", "-X", "sampledso.event.records")},
			clitest.Case{Name: name + " raw", Args: a("-r", "-s", "3", "sample.event.records")},
			clitest.Case{Name: name + " filter", Args: a("-x", "fungus", "sample.event.records")},
			clitest.Case{Name: name + " spec", Args: []string{name + "/sample.event.records"}},
		)
	}
	clitest.CompareLocal(t, "pmevent", pmval.Run, cases)
}
