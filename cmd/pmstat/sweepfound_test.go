package main

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestSweepFound holds command lines the random sweep (TestSweep) found
// differing from PCP's pmstat, each kept once fixed.
func TestSweepFound(t *testing.T) {
	a := clitest.QAArchive(t, "babylon.pmview_v2")
	cases := []clitest.Case{
		// the zone's note comes before a bad window's error
		{Name: "zone note then bad window", Args: []string{"-t", "1.5", "-a", a, "-S", "@notatime", "-s", "4", "-Z", "XYZ"}},
		{Name: "host zone note then bad window", Args: []string{"-a", a, "-z", "-T", "@notatime"}},
		// an operand is "too many options" whatever else is wrong
		{Name: "bad interval and operand", Args: []string{"-t", "-1", "-a", a, "-s", "4", "extra"}},
		{Name: "unknown option and operand", Args: []string{"-q", "extra"}},
		{Name: "zones and operand", Args: []string{"-Z", "UTC", "-z", "-a", a, "extra"}},
		{Name: "version and operand", Args: []string{"-V", "extra"}},
		// disk.all.read, a 64-bit unsigned counter past 2^63, interpolated
		// with libpcp's signed arithmetic
		{Name: "u64 counter past 2^63", Args: []string{"-a", a, "-z", "-T", "+1y"}},
		{Name: "u64 counter window", Args: []string{"-a", clitest.QAArchive(t, "960624.08.17_v2"), "-A", "1min", "-t", "5", "-T", "-10", "-s", "4"}},
	}
	clitest.CompareLocal(t, "pmstat", func(ctx context.Context, argv []string, stdout, stderr io.Writer) int {
		return run(ctx, argv, stdout, stderr, func(time.Duration) {})
	}, cases)
}
