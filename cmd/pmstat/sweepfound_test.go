package main

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/cli/clitest"
)

// TestSweepFound holds command lines the random sweep (TestSweep) found
// differing from PCP's pmstat, each kept once fixed.
func TestSweepFound(t *testing.T) {
	a := clitest.QAArchive(t, "babylon.pmview_v2")
	cases := []clitest.Case{
		// the zone's note comes before a bad window's error
		{Name: "zone note then bad window", Args: []string{"-t", "1.5", "-a", a, "-S", "@notatime", "-s", "4", "-Z", "XYZ"}},
		{Name: "host zone note then bad window", Args: []string{"-a", a, "-z", "-T", "@notatime"}},
	}
	clitest.CompareLocal(t, "pmstat", func(ctx context.Context, argv []string, stdout, stderr io.Writer) int {
		return run(ctx, argv, stdout, stderr, func(time.Duration) {})
	}, cases)
}
