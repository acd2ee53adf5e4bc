package pmval

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestSweepFound holds command lines the random sweep (TestSweep) found
// differing from PCP's pmval, each kept once fixed.
func TestSweepFound(t *testing.T) {
	qa := func(name string) string { return clitest.QAArchive(t, name) }
	cov := qa("coverage")
	cases := []clitest.Case{
		// rates divide by a difference of times each made a double as
		// pmtimespecToReal makes it, in every digit -f shows
		{Name: "rate digits records", Args: []string{"-i", "vda", "-U", cov, "-a", cov, "-f", "16", "-s", "9", "disk.dev.total"}},
		{Name: "rate digits interpolated", Args: []string{"-a", cov, "-t", "7.3", "-f", "16", "-s", "9", "disk.dev.total"}},
		{Name: "rate digits v2", Args: []string{"-a", qa("20041125"), "-t", "3.7", "-f", "16", "-s", "9", "swap.pagesin"}},
		// a 64-bit unsigned counter past 2^63 interpolates with libpcp's
		// signed comparisons and conversions
		{Name: "u64 counter past 2^63 raw", Args: []string{"-a", qa("babylon.pmview_v2"), "-t", "5", "-r", "disk.all.read"}},
		{Name: "u64 counter past 2^63 rate", Args: []string{"-a", qa("babylon.pmview_v2"), "-t", "2.2", "disk.all.read"}},
	}
	clitest.CompareLocal(t, "pmval", run, cases)
}

// TestSweepFoundLive holds live command lines: a window's end given back
// from the end, which a live source does not have, is libpcp's invalid
// window, reported after the zone's note.
func TestSweepFoundLive(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	cases := []clitest.Case{
		{Name: "end back from no end", Args: []string{"-T", "-1m", "-s", "1", "sample.long.one"}},
		{Name: "end back from no end with zone", Args: []string{"-T", "-30", "-Z", "UTC", "-s", "1", "sample.long.one"}},
		{Name: "end not a time", Args: []string{"-T", "@notatime", "-s", "1", "sample.long.one"}},
	}
	clitest.Compare(t, "pmval", run, bed, cases)
}
