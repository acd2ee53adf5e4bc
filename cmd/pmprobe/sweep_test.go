package main

import (
	"fmt"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestSweep compares pmprobe with PCP's on random command lines over
// every QA archive: one to three operands from each archive's namespace
// in the forms users type, and random subsets of pmprobe's options.
// GOPCP_SWEEP sets the number of cases, GOPCP_SWEEP_SEED repeats a run.
func TestSweep(t *testing.T) {
	s := clitest.NewSweep(t, 40)
	flags := []string{"-f", "-F", "-I", "-i", "-v", "-V"}
	cases := make([]clitest.Case, 0, s.N)
	for i := range s.N {
		arch := s.Archive()
		g := [][]string{{"-a", arch}}
		for range s.IntN(4) {
			g = append(g, []string{s.Pick(flags...)})
		}
		faster := false
		for _, o := range g {
			faster = faster || o[0] == "-F"
		}
		// PCP's pmprobe -F prints freed names when a small batch holds
		// only names not found
		if s.Maybe(6) && !faster {
			g = append(g, []string{"-b", s.Pick("1", "2", "5", "128", "x")}) // PCP's pmprobe -b 0 -f loops for ever
		}
		if s.Maybe(8) {
			g = append(g, []string{"-O", s.Offset()})
		}
		if s.Maybe(10) {
			g = append(g, s.Zone())
		}
		if s.Maybe(12) {
			g = append(g, s.Extra(arch))
		}
		g = s.Spell(g, map[string]string{"-b": "--batch", "-f": "--force", "-F": "--faster",
			"-I": "--external", "-i": "--internal", "-V": "--verbose", "-v": "--values"})
		args := s.Shuffled(g)
		n := 1 + s.IntN(3)
		if s.Maybe(15) {
			n = 0 // the whole namespace
		}
		for range n {
			args = append(args, s.Metric(t, arch, s.Maybe(5)))
		}
		cases = append(cases, clitest.Case{Name: fmt.Sprint(i), Args: args})
	}
	clitest.CompareLocal(t, "pmprobe", run, cases)
}
