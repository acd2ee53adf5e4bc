package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// TestSweep compares pminfo with PCP's on random command lines over every
// QA archive: one to three operands drawn from each archive's namespace
// (leaves, non-leaves, names that are not there, instance
// specifications pminfo does not take) and random subsets of pminfo's
// reporting options. GOPCP_SWEEP sets the number of cases,
// GOPCP_SWEEP_SEED repeats a run.
func TestSweep(t *testing.T) {
	s := clitest.NewSweep(t, 40)
	flags := []string{"-d", "-f", "-F", "-I", "-l", "-m", "-M", "-t", "-T", "-x", "-v", "-s"}
	cases := make([]clitest.Case, 0, s.N)
	for i := range s.N {
		arch := s.Archive()
		g := [][]string{{"-a", arch}}
		n := 1 + s.IntN(3)
		if s.Maybe(15) {
			n = 0 // the whole namespace
		}
		for range s.IntN(4) {
			f := s.Pick(flags...)
			if n == 0 && strings.ContainsAny(f[1:], "fFxvs") {
				continue // values of a whole namespace: minutes for the largest
			}
			g = append(g, []string{f})
		}
		if s.Maybe(6) {
			g = append(g, []string{"-b", s.Pick("1", "2", "5", "128", "0", "x")})
		}
		if s.Maybe(8) {
			g = append(g, []string{"-O", s.Offset()})
		}
		if s.Maybe(10) {
			g = append(g, s.Zone())
		}
		if s.Maybe(25) {
			g = append(g, []string{"-n", filepath.Join(clitest.QAArchives, "bigace.pmns")})
		}
		if s.Maybe(12) {
			g = append(g, s.Extra(arch))
		}
		g = s.Spell(g, map[string]string{"-b": "--batch", "-d": "--desc", "-f": "--fetch", "-F": "--fetchall",
			"-I": "--fullindom", "-l": "--labels", "-m": "--pmid", "-M": "--fullpmid", "-s": "--series",
			"-t": "--oneline", "-T": "--helptext", "-x": "--events", "-v": "--verify"})
		args := s.Shuffled(g)
		for range n {
			args = append(args, s.Metric(t, arch, s.Maybe(5)))
		}
		cases = append(cases, clitest.Case{Name: fmt.Sprint(i), Args: args, Mask: maskEventHelp})
	}
	clitest.CompareLocal(t, "pminfo", run, cases)
}

// eventHelp are the texts of event.flags and event.missed, PCP's and
// ours (worded afresh), which the mask makes one.
var eventHelp = strings.NewReplacer(
	"Flags for event records", "ONELINE",
	"Flags of an event record", "ONELINE",
	"Count of missed event records", "ONELINE",
	"Count of event records missed", "ONELINE",
	"An anonymous derived metric that is used to encode the event flags\n"+
		"associated with event records.   See pmUnpackEventRecords(3).", "HELP",
	"The flags of each record unpacked from an event metric's value; see pmUnpackEventRecords(3).", "HELP",
	"An anonymous derived metric that is used to encode the number of\n"+
		"event records missed because either the PMDA could not keep up\n"+
		"or the PMAPI client did not collect the event records fast\n"+
		"enough.  See pmUnpackEventRecords(3).", "HELP",
	"How many event records were lost because the agent or the client\n"+
		"could not keep up; see pmUnpackEventRecords(3).", "HELP",
)

// maskEventHelp makes the help texts of event.flags and event.missed one.
func maskEventHelp(s string) string { return eventHelp.Replace(s) }
