package main

import (
	"fmt"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestDamagedSweep spoils copies of QA archives at random (cut files,
// changed record lengths, rewritten temporal index entries, changed
// metadata bytes) and compares pmlogcheck on each with PCP's, ours
// bounded in time and memory, with the options that need the open
// archive: the label and its end (or a damaged one's warning), a time
// window, a zone. GOPCP_DAMAGE_SEED repeats a run, GOPCP_DAMAGE_COPIES
// asks for more copies.
func TestDamagedSweep(t *testing.T) {
	rng, copies := clitest.DamageRun(t, 20, 0xc4)
	var cases []clitest.Case
	for i := range copies {
		src := clitest.DamageSources[rng.IntN(len(clitest.DamageSources))]
		orig := clitest.QAArchive(t, src.Name)
		var dmg clitest.Damage
		if rng.IntN(3) == 0 {
			if d, ok := clitest.IndexDamage(t, rng, orig); ok {
				dmg = d
			} else {
				dmg = clitest.RandomDamage(t, rng, orig)
			}
		} else {
			dmg = clitest.RandomDamage(t, rng, orig)
		}
		base := clitest.CopyDamaged(t, orig, t.TempDir(), dmg)
		opts := [][]string{{"-v"}, {"-l"}, {"-l", "-S", "+1", "-T", "+30"}, {"-z", "-l", "-v"}, {"-m", "-l"}, {"-Dappl0"}}[rng.IntN(6)]
		args := append(append([]string{}, opts...), base)
		cases = append(cases, clitest.Case{Name: fmt.Sprintf("%02d %s %s", i, src.Name, dmg), Args: args})
	}
	clitest.CompareDamaged(t, "pmlogcheck", runMain, cases)
}
