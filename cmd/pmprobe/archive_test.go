package main

import (
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestArchivesAgainstPCP compares pmprobe -a with PCP's pmprobe on QA
// archives: value counts, values, instance numbers and names (those of
// the fetch and, with -f, every instance the archive ever had), the
// window's origin and time zones.
func TestArchivesAgainstPCP(t *testing.T) {
	qa := func(name string) string { return clitest.QAArchive(t, name) }
	var cases []clitest.Case
	for _, name := range []string{"20041125", "omnibus_v3", "interpmark", "dyninsts", "changeinst", "multi-xz"} {
		for _, opts := range [][]string{nil, {"-v"}, {"-I"}, {"-i"}, {"-iI"}, {"-f", "-I"}, {"-v", "-O", "+10"}, {"-v", "-z"}} {
			cases = append(cases, clitest.Case{
				Name: name + " " + strings.Join(opts, " "),
				Args: append([]string{"-a", qa(name)}, opts...),
			})
		}
	}
	cases = append(cases,
		clitest.Case{Name: "bad window", Args: []string{"-a", qa("omnibus_v3"), "-v", "-S", "@Feb 30 99:00"}},
		clitest.Case{Name: "no archive", Args: []string{"-a", "/nonexistent/archive"}},
	)
	clitest.CompareLocal(t, "pmprobe", run, cases)
}
