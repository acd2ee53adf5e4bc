package main

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestOptionMixesAgainstPCP adds to the Guide's cases the option mixes
// its usage allows or refuses: bad numbers and times, options without
// their argument, -Z and -z each way and a bad zone, -O/-A forms, long
// options.
func TestOptionMixesAgainstPCP(t *testing.T) {
	a := clitest.QAArchive(t, "omen.client")
	var cases []clitest.Case
	for _, args := range [][]string{
		{"-s", "x"}, {"-s", "-1"}, {"-s", "0", "-T", "+10"}, {"-t", "0", "-s", "2"}, {"-t", "-1", "-s", "2"},
		{"-t", "1 minute", "-s", "2"}, {"-O", "@junk"}, {"-O", "-30", "-s", "2"}, {"-O", "@ Mon Jan  1 00:00:00 2035", "-s", "1"},
		{"-A", "junk"}, {"-A", "1h", "-s", "2"}, {"-A", "1m", "-O", "+30", "-s", "2"},
		{"-z", "-Z", "UTC"}, {"-Z", "UTC", "-z"}, {"-Z", "no/such/zone", "-s", "1"}, {"-Z", "UTC", "-s", "1"},
		{"-S", "+1000000", "-s", "1"}, {"-S", "-10", "-s", "1"}, {"-S", "+10", "-T", "+5"},
		{"--samples=2", "--interval=30"}, {"--samples"}, {"--origin"}, {"--nosuch"},
		{"-s"}, {"-t"}, {"-S"}, {"-T"}, {"-O"}, {"-A"}, {"-Z"}, {"-D"}, {"-n"},
		{"-P", "-s", "1", "-t", "0.001"}, {"-L", "-s", "1"},
	} {
		cases = append(cases, clitest.Case{Name: "-a omen " + fmtArgs(args), Args: append([]string{"-a", a}, args...)})
	}
	for _, args := range [][]string{{"-a"}, {"-h"}, {"-a", a, "-a", a, "-s", "1"}} {
		cases = append(cases, clitest.Case{Name: fmtArgs(args), Args: args})
	}
	clitest.CompareLocal(t, "pmclient", run, cases)
}

func fmtArgs(args []string) string {
	s := ""
	for i, a := range args {
		if i > 0 {
			s += " "
		}
		s += a
	}
	return s
}
