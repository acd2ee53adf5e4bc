package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/cli/clitest"
)

// TestSweep compares pminfo with PCP's on random command lines over every
// QA archive: one to three operands drawn from each archive's namespace
// (leaves, non-leaves, names that are not there, instance
// specifications pminfo does not take) and random subsets of pminfo's
// reporting options. GOPCP_SWEEP sets the number of cases,
// GOPCP_SWEEP_SEED repeats a run.
func TestSweep(t *testing.T) {
	s := clitest.NewSweep(t, 40)
	flags := []string{"-d", "-f", "-F", "-I", "-l", "-m", "-M", "-t", "-T", "-x", "-v", "-s"}
	cases := make([]clitest.Case, 0, s.N)
	for i := range s.N {
		arch := s.Archive()
		g := [][]string{{"-a", arch}}
		for range s.IntN(4) {
			g = append(g, []string{s.Pick(flags...)})
		}
		if s.Maybe(6) {
			g = append(g, []string{"-b", s.Pick("1", "2", "5", "128", "0", "x")})
		}
		if s.Maybe(8) {
			g = append(g, []string{"-O", s.Offset()})
		}
		if s.Maybe(10) {
			g = append(g, s.Zone())
		}
		if s.Maybe(25) {
			g = append(g, []string{"-n", filepath.Join(clitest.QAArchives, "bigace.pmns")})
		}
		args := s.Shuffled(g)
		n := 1 + s.IntN(3)
		if s.Maybe(15) {
			n = 0 // the whole namespace
		}
		for range n {
			args = append(args, s.Metric(t, arch, s.Maybe(5)))
		}
		cases = append(cases, clitest.Case{Name: fmt.Sprint(i), Args: args, Mask: maskEventHelp})
	}
	clitest.CompareLocal(t, "pminfo", run, cases)
}

var eventOneLine = regexp.MustCompile(`^(event\.(flags|missed)) \[.*\]$`)

// maskEventHelp blanks the help text of event.flags and event.missed,
// which ours words afresh.
func maskEventHelp(s string) string {
	var out []string
	inEvent, inHelp := false, false
	for _, l := range strings.Split(s, "\n") {
		switch {
		case eventOneLine.MatchString(l):
			l = eventOneLine.ReplaceAllString(l, "$1 [help]")
			inEvent, inHelp = true, false
		case l == "event.flags" || l == "event.missed":
			inEvent, inHelp = true, false
		case inEvent && l == "Help:":
			inHelp = true
		case inHelp && l != "":
			continue
		case l == "":
			inEvent, inHelp = false, false
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
