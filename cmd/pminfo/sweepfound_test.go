package main

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestSweepFound holds command lines the random sweep (TestSweep) found
// differing from PCP's pminfo, each kept once fixed.
func TestSweepFound(t *testing.T) {
	a := clitest.QAArchive(t, "schizo-B")
	pmns := clitest.QAArchives + "/bigace.pmns"
	cases := []clitest.Case{
		// libpcp loads one name space a process: a second -n (or -N)
		// is PM_ERR_DUPPMNS, a first that failed leaves room for one
		{Name: "namespace twice", Args: []string{"-n", pmns, "-n", pmns, "-a", a, "sample.bin"}},
		{Name: "namespace and unique names", Args: []string{"-n", pmns, "-N", pmns, "-a", a, "sample.bin"}},
		{Name: "failed namespace then one", Args: []string{"-n", "/nonexistent/pmns", "-n", pmns, "-a", a, "sample.bin"}},
		// domain 511 with cluster 2048 is the archive's metric (logged
		// when it was derived), its help text asked of the archive
		{Name: "logged derived metric help", Args: []string{"-a", clitest.QAArchive(t, "bozo-disk"), "-tT", "disk.dev.await", "disk.dev.r_await"}},
		// the zone's note comes before a bad window's error
		{Name: "zone note then bad origin", Args: []string{"-z", "-a", clitest.QAArchive(t, "sample_expr"), "-O", "+-1", "sample.byte_rate_perhour"}},
		{Name: "named zone then bad origin", Args: []string{"-Z", "UTC", "-a", a, "-O", "@notatime", "sample.bin"}},
	}
	clitest.CompareLocal(t, "pminfo", run, cases)
}
