package main

import (
	"fmt"
	"testing"

	"github.com/gopcp/gopcp/internal/cli/clitest"
)

// damagedSources are the QA archives the sweep spoils, each with metrics
// of each semantics it holds and steps to interpolate at.
var damagedSources = []struct {
	name    string
	metrics []string
	steps   []string
}{
	{"20041125", []string{"swap.pagesin", "kernel.all.load", "filesys.mountdir"}, []string{"10", "37", "2min"}},
	{"interpmark", []string{"network.tcpconn.close", "disk.dev.total"}, []string{"5", "13"}},
	{"changeinst", []string{"sample.bin", "irix.network.interface.total.packets"}, []string{"1", "0.7"}},
	{"dyninsts", []string{"disk.dev.write"}, []string{"0.5", "1.5"}},
	{"gap", []string{"pmcd.pdu_in.error", "proc.nprocs"}, []string{"1", "2.5"}},
	{"omnibus_v3", []string{"sample.long.bin_ctr", "sample.colour", "pmcd.seqnum"}, []string{"0.5", "0.25"}},
	{"uwrap", []string{"sample.wrap.ulong"}, []string{"1", "7"}},
	{"ok-mv-bar", []string{"sampledso.milliseconds", "sampledso.bin"}, []string{"0.2", "0.5"}},
	{"540117-short", []string{"kernel.all.load"}, []string{"10", "33"}},
	{"rattle", []string{"irix.kernel.all.load"}, []string{"7m", "20m"}},
}

// TestDamagedSweep spoils copies of QA archives at random (cut data
// volumes, metadata and indexes, changed record lengths) and compares
// pmval -a on each with PCP's pmval: the steps before the damage, then
// PCP's error, exit status and all. The seed is printed; set
// GOPCP_DAMAGE_SEED to repeat a run, GOPCP_DAMAGE_COPIES for more copies.
func TestDamagedSweep(t *testing.T) {
	rng, copies := clitest.DamageRun(t, 30, 0x5eed)
	var cases []clitest.Case
	for i := range copies {
		src := damagedSources[rng.IntN(len(damagedSources))]
		orig := clitest.QAArchive(t, src.name)
		dmg := clitest.RandomDamage(t, rng, orig)
		base := clitest.CopyDamaged(t, orig, t.TempDir(), dmg)
		metric := src.metrics[rng.IntN(len(src.metrics))]
		step := src.steps[rng.IntN(len(src.steps))]
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
			Name: fmt.Sprintf("%02d %s %s", i, src.name, dmg),
			Args: args,
		})
	}
	clitest.CompareDamaged(t, "pmval", run, cases)
}
