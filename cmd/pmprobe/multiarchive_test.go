package main

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestMultiArchiveAgainstPCP compares pmprobe on several archives with
// PCP's: given as several -a (which libpcp joins into one list), as one
// comma-separated list, as their directory, with repeats, out of time
// order, with one missing, and through PCP_ARCHIVE, on QA's multi
// archives, plain and compressed.
func TestMultiArchiveAgainstPCP(t *testing.T) {
	ops := [][]string{{"-v", "proc.nprocs", "kernel.all.load"}, {"-I", "disk.dev.read"}, {"-O", "+300", "-v", "disk.dev.read"}}
	cases := clitest.MultiArchiveCases(t, ops, nil)
	clitest.CompareLocal(t, "pmprobe", run, cases)
}
