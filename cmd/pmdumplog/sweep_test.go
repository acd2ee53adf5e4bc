package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestSweep compares pmdumplog with PCP's on random command lines over
// every QA archive: random subsets of pmdumplog's options and metric
// operands from each archive's namespace in the forms users type. Value
// dumps name one to three metrics, to keep the output of the largest
// archives small. GOPCP_SWEEP sets the number of
// cases, GOPCP_SWEEP_SEED repeats a run.
func TestSweep(t *testing.T) {
	s := clitest.NewSweep(t, 40)
	flags := []string{"-a", "-d", "-e", "-h", "-I", "-i", "-L", "-l", "-M", "-m", "-r", "-s", "-t", "-x", "-xx", "-xxx"}
	cases := make([]clitest.Case, 0, s.N)
	for i := range s.N {
		arch := s.Archive()
		var g [][]string
		for range s.IntN(4) {
			g = append(g, []string{s.Pick(flags...)})
		}
		for _, w := range s.Window() {
			if w[0] == "-O" || w[0] == "-A" {
				continue // not pmdumplog's
			}
			g = append(g, w)
		}
		if s.Maybe(40) {
			g = append(g, []string{"-n", filepath.Join(clitest.QAArchives, "bigace.pmns")})
		}
		g = s.Spell(g, map[string]string{"-a": "--all", "-d": "--descs", "-e": "--labelsets", "-h": "--helptext",
			"-I": "--on-disk-insts", "-i": "--insts", "-L": "", "-l": "--label", "-M": "--markrecs",
			"-m": "--metrics", "-r": "--reverse", "-s": "--sizes", "-t": "", "-x": "", "-xx": "", "-xxx": ""})
		args := s.Shuffled(g)
		if s.Maybe(40) {
			m, _ := filepath.Glob(arch + ".*")
			if len(m) > 0 {
				args = append(args, "-v", s.Pick(m...))
			}
			cases = append(cases, clitest.Case{Name: fmt.Sprint(i), Args: args})
			continue
		}
		args = append(args, arch)
		// always named metrics: a whole dump of the largest archives
		// takes minutes
		for range 1 + s.IntN(3) {
			args = append(args, s.Metric(t, arch, false))
		}
		cases = append(cases, clitest.Case{Name: fmt.Sprint(i), Args: args})
	}
	clitest.CompareLocal(t, "pmdumplog", func(_ context.Context, argv []string, stdout, stderr io.Writer) int {
		return run(argv, stdout, stderr)
	}, cases)
}
