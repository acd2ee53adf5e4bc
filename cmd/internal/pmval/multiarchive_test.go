package pmval

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestMultiArchiveAgainstPCP compares pmval on several archives with
// PCP's: given as several -a (which libpcp joins into one list), as one
// comma-separated list, as their directory, with repeats, out of time
// order, with one missing, and through PCP_ARCHIVE, on QA's multi
// archives, plain and compressed.
func TestMultiArchiveAgainstPCP(t *testing.T) {
	ops := [][]string{{"-s", "4", "-t", "1m", "kernel.all.load"}, {"-t", "90", "-S", "+100", "-T", "+700", "disk.dev.read"}, {"-r", "-s", "3", "proc.nprocs"}}
	cases := clitest.MultiArchiveCases(t, ops, func(m clitest.MultiArchive) []clitest.Case {
		// -U (non-interpolated) adds to the same list as -a
		a := m.Path
		return []clitest.Case{
			{Name: m.Set + " -U", Args: []string{"-U", a("11.44"), "-s", "3", "proc.nprocs"}},
			{Name: m.Set + " -a and -U", Args: []string{"-a", a("11.46"), "-U", a("11.44"), "-s", "5", "proc.nprocs"}},
			{Name: m.Set + " -U twice", Args: []string{"-U", a("11.44"), "-U", a("11.50"), "-s", "5", "kernel.all.load"}},
		}
	})
	clitest.CompareLocal(t, "pmval", run, cases)
}
