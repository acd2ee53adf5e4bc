package main

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestDamagedSweep spoils copies of QA archives at random (cut files,
// changed record lengths, rewritten temporal index entries, changed
// metadata bytes) and compares pmdumplog on each with PCP's, each run of
// ours bounded in time and memory: the index, the label, descriptors,
// instances and the records of a metric, forwards and backwards. The
// seed is printed; set GOPCP_DAMAGE_SEED to repeat a run,
// GOPCP_DAMAGE_COPIES for more copies.
func TestDamagedSweep(t *testing.T) {
	rng, copies := clitest.DamageRun(t, 20, 0xd0)
	var cases []clitest.Case
	for i := range copies {
		src := clitest.DamageSources[rng.IntN(len(clitest.DamageSources))]
		orig := clitest.QAArchive(t, src.Name)
		dmg := clitest.RandomDamage(t, rng, orig)
		base := clitest.CopyDamaged(t, orig, t.TempDir(), dmg)
		metric := src.Metrics[rng.IntN(len(src.Metrics))]
		var args []string
		switch flag := []string{"-t", "-l", "-d", "-i", "-L", "-r", "-m", ""}[rng.IntN(8)]; flag {
		case "":
			args = []string{base, metric}
		case "-r", "-m":
			args = []string{flag, base, metric}
		default:
			args = []string{flag, base}
		}
		cases = append(cases, clitest.Case{Name: fmt.Sprintf("%02d %s %s", i, src.Name, dmg), Args: args})
	}
	clitest.CompareDamaged(t, "pmdumplog", func(_ context.Context, argv []string, stdout, stderr io.Writer) int {
		return run(argv, stdout, stderr)
	}, cases)
}
