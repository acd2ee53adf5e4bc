package main

import (
	"fmt"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestDamagedSweep spoils copies of QA archives at random (cut files,
// changed record lengths, rewritten temporal index entries, changed
// metadata bytes) and compares pminfo -a on each with PCP's pminfo, each
// run of ours bounded in time and memory. The seed is printed; set
// GOPCP_DAMAGE_SEED to repeat a run, GOPCP_DAMAGE_COPIES for more copies.
func TestDamagedSweep(t *testing.T) {
	rng, copies := clitest.DamageRun(t, 20, 0x1f0)
	var cases []clitest.Case
	for i := range copies {
		src := clitest.DamageSources[rng.IntN(len(clitest.DamageSources))]
		orig := clitest.QAArchive(t, src.Name)
		dmg := clitest.RandomDamage(t, rng, orig)
		base := clitest.CopyDamaged(t, orig, t.TempDir(), dmg)
		metric := src.Metrics[rng.IntN(len(src.Metrics))]
		var args []string
		switch rng.IntN(5) {
		case 0:
			args = []string{"-a", base, "-f", metric}
		case 1:
			args = []string{"-a", base, "-dmT", metric}
		case 2:
			args = []string{"-a", base, "-f", "-O", "+" + src.Steps[0], metric}
		case 3:
			args = []string{"-a", base, "-l", metric}
		default:
			args = []string{"-a", base}
		}
		cases = append(cases, clitest.Case{Name: fmt.Sprintf("%02d %s %s", i, src.Name, dmg), Args: args})
	}
	clitest.CompareDamaged(t, "pminfo", run, cases)
}
