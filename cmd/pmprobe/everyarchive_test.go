package main

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestEveryArchiveAgainstPCP compares pmprobe -a with PCP's over the QA
// archives with a fixed list of option sets: the whole namespace with
// instances (internal, external, every one of the domain) and values,
// and named metrics as leaves (-F) and at an offset. By default the
// small archives; GOPCP_EVERY_ARCHIVE=1 for every one.
func TestEveryArchiveAgainstPCP(t *testing.T) {
	var cases []clitest.Case
	for _, e := range clitest.EveryArchives(t, 24<<10) {
		for i, opts := range [][]string{
			{}, {"-i"}, {"-I"}, {"-v"}, {"-f", "-I"}, append([]string{"-F"}, e.Names...),
			append([]string{"-v", "-I", "-i"}, e.Names...), append([]string{"-v", "-O", "+30"}, e.Names...),
		} {
			args := append([]string{"-a", e.Path}, opts...)
			cases = append(cases, clitest.Case{Name: e.CaseName(i, args), Args: args})
		}
	}
	clitest.CompareLocal(t, "pmprobe", run, cases)
}
