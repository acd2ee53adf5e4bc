package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/cli/clitest"
)

// TestMultiArchiveAgainstPCP compares pmval on several archives with
// PCP's: given as several -a (which libpcp joins into one list), as one
// comma-separated list, as their directory, with repeats, out of time
// order, with one missing, and through PCP_ARCHIVE, on QA's multi
// archives, plain and compressed.
func TestMultiArchiveAgainstPCP(t *testing.T) {
	ops := [][]string{{"-s", "4", "-t", "1m", "kernel.all.load"}, {"-t", "90", "-S", "+100", "-T", "+700", "disk.dev.read"}, {"-r", "-s", "3", "proc.nprocs"}}
	var cases []clitest.Case
	for _, dir := range []string{"multi", "multi-xz"} {
		d := clitest.QAArchive(t, dir)
		a := func(stamp string) string { return filepath.Join(d, "20150508."+stamp) }
		sources := map[string][]string{
			"several -a":   {"-a", a("11.44"), "-a", a("11.46"), "-a", a("11.50")},
			"comma list":   {"-a", strings.Join([]string{a("11.44"), a("11.46"), a("11.57")}, ",")},
			"list and -a":  {"-a", a("11.44") + "," + a("11.46"), "-a", a("11.50"), "-a", a("11.46")},
			"directory":    {"-a", d},
			"repeated":     {"-a", a("11.50"), "-a", a("11.50")},
			"out of order": {"-a", a("11.57"), "-a", a("11.44")},
			"one missing":  {"-a", a("11.44"), "-a", a("no.such")},
			"host too":     {"-a", a("11.44"), "-h", "local:", "-a", a("11.46")},
		}
		for what, src := range sources {
			for _, op := range ops {
				cases = append(cases, clitest.Case{
					Name: dir + " " + what + " " + strings.Join(op, " "),
					Args: append(append([]string{}, src...), op...),
				})
			}
		}
		// -U (non-interpolated) adds to the same list as -a
		cases = append(cases,
			clitest.Case{Name: dir + " -U", Args: []string{"-U", a("11.44"), "-s", "3", "proc.nprocs"}},
			clitest.Case{Name: dir + " -a and -U", Args: []string{"-a", a("11.46"), "-U", a("11.44"), "-s", "5", "proc.nprocs"}},
			clitest.Case{Name: dir + " -U twice", Args: []string{"-U", a("11.44"), "-U", a("11.50"), "-s", "5", "kernel.all.load"}},
		)
		cases = append(cases, clitest.Case{
			Name: dir + " PCP_ARCHIVE and -a",
			Env:  []string{"PCP_ARCHIVE=" + a("11.44")},
			Args: append([]string{"-a", a("11.46")}, ops[0]...),
		})
	}
	clitest.CompareLocal(t, "pmval", run, cases)
}
