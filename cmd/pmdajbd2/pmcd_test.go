package main

import (
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestDSOUnderPMCD compares PCP's pmcd with PCP's jbd2 shared object and
// our pmcd with a "jbd2 122 dso jbd2_init" line, as this host's pmcd.conf
// has it, on this host's /proc/fs/jbd2: value counts, descriptors,
// instance names and the domain label both pmcds give an agent of
// interface 4.
func TestDSOUnderPMCD(t *testing.T) {
	so, pmns := pcpJBD2(t, testbed.Need(t), "pmda_jbd2.so")
	pcpBed := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(), testbed.DSOAgent("jbd2", 122, so, "jbd2_init", pmns)}})
	ourBed := testbed.StartGoPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(), testbed.GoDSOAgent("jbd2", 122, "jbd2_init", pmns)}})
	questions := [][]string{
		{"pmprobe", "jbd2"},
		{"pmprobe", "-v", "jbd2.njournals"},
		{"pminfo", "-dm", "jbd2"},
		{"pmprobe", "-I", "jbd2.transaction.count"},
		{"pminfo", "-l", "jbd2.njournals"},
	}
	for _, q := range questions {
		want := pcpBed.Run(q[0], append([]string{"-h", pcpBed.Host()}, q[1:]...)...)
		got := ourBed.Run(q[0], append([]string{"-h", ourBed.Host()}, q[1:]...)...)
		if got.Stdout+got.Stderr != want.Stdout+want.Stderr {
			t.Errorf("%s:\nours:\n%s%s\nPCP's:\n%s%s", strings.Join(q, " "), got.Stdout, got.Stderr, want.Stdout, want.Stderr)
		}
	}
}
