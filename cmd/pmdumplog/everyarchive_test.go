package main

import (
	"context"
	"io"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestEveryArchiveAgainstPCP compares pmdumplog with PCP's over the QA
// archives with a fixed list of option sets: each dump alone, values of
// named metrics forwards, backwards, with sizes, zones, a time window and
// the timestamp forms, and names that are not leaves or do not exist.
// By default the small archives; GOPCP_EVERY_ARCHIVE=1 for every one.
func TestEveryArchiveAgainstPCP(t *testing.T) {
	var cases []clitest.Case
	for _, e := range clitest.EveryArchives(t, 24<<10) {
		m := e.Names[:min(3, len(e.Names))]
		with := func(opts ...string) []string { return append(append(opts, e.Path), m...) }
		for i, args := range [][]string{
			{"-a", e.Path}, {"-d", e.Path}, {"-i", e.Path}, {"-I", e.Path}, {"-l", e.Path}, {"-L", e.Path},
			{"-M", e.Path}, {"-t", e.Path}, {"-h", e.Path}, {"-e", e.Path}, {"-dilLt", e.Path},
			with("-m"), with("-r"), with("-s"), with("-z", "-l"), with("-Z", "EST-10", "-t"),
			with("-S", "+30", "-T", "-30"), with("-S", "+30", "-T", "-30", "-t", "-r"),
			with("-x", "-M"), with("-xx", "-d"), with("-xxx", "-s"), append([]string{e.Path}, e.Names...),
		} {
			cases = append(cases, clitest.Case{Name: e.CaseName(i, args), Args: args})
		}
	}
	clitest.CompareLocal(t, "pmdumplog", func(_ context.Context, argv []string, stdout, stderr io.Writer) int {
		return run(argv, stdout, stderr)
	}, cases)
}
