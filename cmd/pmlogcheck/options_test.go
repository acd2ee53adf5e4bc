package main

import (
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestOptionMixesAgainstPCP runs pmlogcheck and PCP's on option mixes
// its usage allows or refuses: options without their argument, the
// standard options it does not take (-a, -h, -O, -A, -t, -s), -Z and -z
// each way, windows that end before they start or past the archive, a
// directory and an archive's single file as the operand, long forms.
func TestOptionMixesAgainstPCP(t *testing.T) {
	foo := clitest.QAArchive(t, "ok-foo")
	var cases []clitest.Case
	for _, args := range [][]string{
		{"-S"}, {"-T"}, {"-Z"}, {"-n"}, {"-D"},
		{"-a", foo}, {"-h", "localhost", foo}, {"-O", "+1", foo}, {"-A", "1m", foo}, {"-t", "1", foo}, {"-s", "1", foo},
		{"-z", "-Z", "UTC", foo}, {"-Z", "UTC", "-z", foo}, {"-z", "-v", foo}, {"-Z", "", "-l", foo},
		{"-S", "+3", "-T", "+1", "-v", foo}, {"-S", "@ Mon Jan  1 00:00:00 2035", foo}, {"-T", "@ Mon Jan  1 00:00:00 1990", foo},
		{"-S", "-1", "-v", foo}, {"-T", "+0", "-v", foo}, {"-S", "@", foo}, {"-T", "+1x", foo},
		{"--start=+1", "--finish=+2", "--verbose", foo}, {"--label", "--nowrap", foo}, {"--metadataonly", foo},
		{"--nosuch", foo}, {"--start", foo},
		{"-m", "-S", "+1", foo}, {"-lm", foo}, {"-vl", "-z", foo},
		{"-n", "/nonexistent", foo}, {"-v", foo + ".meta"}, {"-v", foo + ".0"}, {"-v", foo + ".index"},
		{"-v", clitest.QAArchives}, {"-v", foo, foo}, {"-"}, {"--", foo},
	} {
		name := strings.ReplaceAll(strings.Join(args, " "), clitest.QAArchives+"/", "")
		cases = append(cases, clitest.Case{Name: name, Args: args})
	}
	clitest.CompareLocal(t, "pmlogcheck", runMain, cases)
}
