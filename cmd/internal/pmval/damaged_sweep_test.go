package pmval

import (
	"fmt"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestDamagedSweep spoils copies of QA archives at random (cut data
// volumes, metadata and indexes, changed record lengths) and compares
// pmval -a on each with PCP's pmval: the steps before the damage, then
// PCP's error, exit status and all. The seed is printed; set
// GOPCP_DAMAGE_SEED to repeat a run, GOPCP_DAMAGE_COPIES for more copies.
func TestDamagedSweep(t *testing.T) {
	rng, copies := clitest.DamageRun(t, 30, 0x5eed)
	var cases []clitest.Case
	for i := range copies {
		src := clitest.DamageSources[rng.IntN(len(clitest.DamageSources))]
		orig := clitest.QAArchive(t, src.Name)
		dmg := clitest.RandomDamage(t, rng, orig)
		base := clitest.CopyDamaged(t, orig, t.TempDir(), dmg)
		metric := src.Metrics[rng.IntN(len(src.Metrics))]
		step := src.Steps[rng.IntN(len(src.Steps))]
		args := []string{"-a", base, "-t", step}
		switch rng.IntN(5) {
		case 1:
			args = append(args, "-r")
		case 2:
			args = append(args, "-T", "-"+step)
		case 3:
			args = append(args, "-S", "+"+step)
		case 4:
			// the records as they are, read forwards
			args = []string{"-a", base, "-U", base, "-r"}
		}
		args = append(args, metric)
		cases = append(cases, clitest.Case{
			Name: fmt.Sprintf("%02d %s %s", i, src.Name, dmg),
			Args: args,
		})
	}
	clitest.CompareDamaged(t, "pmval", run, cases)
}
