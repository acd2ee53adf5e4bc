package main

import (
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestEveryArchiveAgainstPCP compares pmlogcheck with PCP's over the QA
// archives with a fixed list of option sets: plain, the label, metadata
// only, another namespace, a time window, verbose, no wraps and zones.
// By default the small archives; GOPCP_EVERY_ARCHIVE=1 for every one.
func TestEveryArchiveAgainstPCP(t *testing.T) {
	var cases []clitest.Case
	for _, e := range clitest.EveryArchives(t, 24<<10) {
		for i, opts := range [][]string{
			{}, {"-l"}, {"-m"}, {"-n", filepath.Join(clitest.QAArchives, "bigace.pmns")},
			{"-S", "+30", "-T", "-30"}, {"-v"}, {"-w"}, {"-z", "-l"}, {"-Z", "EST-10", "-l", "-v"},
		} {
			args := append(opts, e.Path)
			cases = append(cases, clitest.Case{Name: e.CaseName(i, args), Args: args})
		}
	}
	clitest.CompareLocal(t, "pmlogcheck", runMain, cases)
}
