package main

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestEveryArchiveAgainstPCP compares pminfo -a with PCP's over the QA
// archives with a fixed list of option sets: each report alone over the
// whole namespace, values at an offset and at the end, and named metrics
// (leaves, a top and a missing name) with descriptors, help text and
// zones. By default the small archives; GOPCP_EVERY_ARCHIVE=1 for every
// one.
func TestEveryArchiveAgainstPCP(t *testing.T) {
	var cases []clitest.Case
	for _, e := range clitest.EveryArchives(t, 24<<10) {
		for i, opts := range [][]string{
			{}, {"-d"}, {"-f"}, {"-l"}, {"-m"}, {"-M"}, {"-t"}, {"-T"}, {"-x"}, {"-F"}, {"-d", "-I"},
			{"-f", "-O", "+30"}, {"-f", "-O", "-0"},
			append([]string{"-dmtT"}, e.Names...), append([]string{"-f", "-z"}, e.Names...),
			append([]string{"-fx", "-Z", "EST-10"}, e.Names...),
		} {
			args := append([]string{"-a", e.Path}, opts...)
			cases = append(cases, clitest.Case{Name: e.CaseName(i, args), Args: args, Mask: maskEventHelp})
		}
	}
	clitest.CompareLocal(t, "pminfo", run, cases)
}
