package main

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestEmptyZoneAgainstPCP: an empty -Z is libpcp's zone "TZ=" (UTC) for
// pminfo's archive times too.
func TestEmptyZoneAgainstPCP(t *testing.T) {
	archive := clitest.QAArchive(t, "20041125")
	ny := []string{"TZ=America/New_York"}
	cases := []clitest.Case{
		{Name: "f", Args: []string{"-Z", "", "-a", archive, "-f", "kernel.all.load"}, Env: ny},
		{Name: "f O", Args: []string{"-Z", "", "-O", "@23:30", "-a", archive, "-f", "kernel.all.load"}, Env: ny},
		{Name: "x", Args: []string{"-Z", "", "-a", archive, "-x", "kernel.all.load"}, Env: ny},
	}
	clitest.CompareLocal(t, "pminfo", run, cases)
}
