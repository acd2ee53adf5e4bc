package main

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestSweepFound holds command lines the random sweep (TestSweep) found
// differing from PCP's pmprobe, each kept once fixed.
func TestSweepFound(t *testing.T) {
	qa := func(name string) string { return clitest.QAArchive(t, name) }
	cases := []clitest.Case{
		// -F keeps names not found (PM_ID_NULL) after a partial lookup;
		// an archive fetch of PM_ID_NULL alone reads to the end
		{Name: "faster non-leaf", Args: []string{"-F", "-a", qa("late"), "pmcd", "sampledso.bin"}},
		{Name: "faster missing name", Args: []string{"-a", qa("section-d"), "-F", "no.such.metric", "filesys.used"}},
		{Name: "faster instances", Args: []string{"-a", qa("late"), "-I", "-F", "pmcd", "sampledso", "sampledso.bin"}},
		{Name: "faster values", Args: []string{"-F", "-v", "-a", qa("multi-vm00"), "sampledso.ulong.million", "sample"}},
		// the zone's note comes before a bad window's error
		{Name: "zone note then bad origin", Args: []string{"-z", "-a", qa("sample_expr"), "-O", "+-1", "sample.byte_rate_perhour"}},
		{Name: "named zone then bad origin", Args: []string{"-Z", "UTC", "-a", qa("late"), "-O", "@notatime", "sampledso.bin"}},
	}
	clitest.CompareLocal(t, "pmprobe", run, cases)
}
