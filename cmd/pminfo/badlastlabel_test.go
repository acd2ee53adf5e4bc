package main

import (
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestBadLastLabelAgainstPCP compares pminfo -f at the end of an archive
// whose last volume is cut inside its label (found by the sweep of cut
// QA archives): libpcp counts such a volume as unseen, so each
// pmSetMode checks the index against it as empty and places the reader
// in the volume before; every metric named gets its value, not just the
// first.
func TestBadLastLabelAgainstPCP(t *testing.T) {
	orig := clitest.QAArchive(t, "ok-mv-bigbin")
	base := clitest.CopyDamaged(t, orig, t.TempDir(), clitest.Damage{Suffix: ".9", Kind: "truncate", Off: 10})
	cases := []clitest.Case{
		{Name: "end", Args: []string{"-a", base, "-f", "-O", "-0", "sample.milliseconds", "sample.colour", "sample.bin"}},
		{Name: "end one batch", Args: []string{"-a", base, "-f", "-O", "-0", "sample"}},
		{Name: "start", Args: []string{"-a", base, "-f", "sample.milliseconds", "sample.colour"}},
		{Name: "before end", Args: []string{"-a", base, "-f", "-O", "-1", "sample.milliseconds", "sample.colour"}},
	}
	clitest.CompareDamaged(t, "pminfo", run, cases)
}
