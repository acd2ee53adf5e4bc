package pmval

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestSweep compares pmval with PCP's on random command lines over every
// QA archive: random metrics of each archive's namespace in the forms a
// user types, and random subsets of pmval's options (intervals, sample
// counts, time windows, alignment, zones, -r, -f, -i, -w, -U, -v, -X).
// GOPCP_SWEEP sets the number of cases, GOPCP_SWEEP_SEED repeats a run.
func TestSweep(t *testing.T) {
	s := clitest.NewSweep(t, 40)
	cases := make([]clitest.Case, 0, s.N)
	for i := range s.N {
		arch := s.Archive()
		g := [][]string{{"-a", arch}, {"-s", strconv.Itoa(1 + s.IntN(12))}}
		if s.Maybe(5) {
			g = append(g, []string{"-U", arch})
		} else if !s.Maybe(4) {
			g = append(g, []string{"-t", s.Interval()})
		}
		g = append(g, s.Window()...)
		if s.Maybe(4) {
			g = append(g, []string{"-r"})
		}
		if s.Maybe(6) {
			g = append(g, []string{"-f", s.Pick("0", "1", "2", "4", "10", "-1", "x")})
		}
		if s.Maybe(6) {
			g = append(g, []string{"-w", s.Pick("1", "5", "8", "12", "20", "0", "y")})
		}
		if s.Maybe(8) {
			g = append(g, []string{"-v"})
		}
		if s.Maybe(8) {
			g = append(g, []string{s.Pick("-X", "-XX")})
		}
		metric := s.Metric(t, arch, true)
		if s.Maybe(5) {
			leaf := s.Leaf(t, arch)
			insts := s.Instances(t, arch, leaf)
			in := s.Pick("nosuch", "0", "1")
			if len(insts) > 0 && !s.Maybe(4) {
				in = insts[s.IntN(len(insts))]
				if len(insts) > 1 && s.Maybe(2) {
					in += "," + insts[s.IntN(len(insts))]
				}
			}
			g = append(g, []string{"-i", in})
			metric = leaf
		}
		if s.Maybe(30) {
			g = append(g, []string{"-x", "filter"})
		}
		if s.Maybe(12) {
			g = append(g, s.Extra(arch))
		}
		g = s.Spell(g, map[string]string{"-r": "--raw", "-f": "--precision", "-i": "--instances",
			"-w": "--width", "-U": "--nointerp", "-v": "--verbose", "-X": "--timestamp", "-x": "--filter"})
		args := append(s.Shuffled(g), metric)
		if s.Maybe(40) {
			args = append(args, s.Leaf(t, arch)) // too many operands
		}
		cases = append(cases, clitest.Case{Name: fmt.Sprint(i), Args: args})
	}
	clitest.CompareLocal(t, "pmval", run, cases)
}
