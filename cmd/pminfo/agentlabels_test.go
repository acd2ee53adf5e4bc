package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestAgentLabelsAgainstPCP compares `pminfo -l` (every level of the
// label hierarchy, merged) of agents of both kinds of PMDA interface,
// run every way: PCP's pmcd with PCP's agents against our pmcd with
// ours, and PCP's pminfo -L against ours. pmcd's own agent (interface
// 6) and jbd2 (interface 4) have no label callback: as a daemon jbd2 has
// no "agent" label, in pmcd's process it is named after its pmcd.conf
// line, and in a local context after its shared object's path. sample
// (interface 7) names itself every way.
func TestAgentLabelsAgainstPCP(t *testing.T) {
	in := testbed.Need(t)
	jbd2 := filepath.Join(in.Var("PCP_PMDAS_DIR"), "jbd2")
	so, daemon := filepath.Join(jbd2, "pmda_jbd2.so"), filepath.Join(jbd2, "pmdajbd2")
	pmns := filepath.Join(in.Var("PCP_VAR_DIR"), "pmns", "root_jbd2")
	for _, p := range []string{so, daemon, pmns} {
		if _, err := os.Stat(p); err != nil {
			pcptest.Missing(t, "PCP's jbd2 agent: "+err.Error())
		}
	}
	ourDaemon := pcptest.GoCommand(t, "github.com/gopcp/gopcp/cmd/pmdajbd2")
	metrics := []string{"-l", "pmcd.version", "pmcd.agent.status", "jbd2.njournals", "jbd2.transaction.count"}
	for _, c := range []struct {
		name       string
		pcp, ours  testbed.Agent
		withSample bool
	}{
		{"pipe", testbed.PipeAgent("jbd2", 122, pmns, daemon, "-d", "122"),
			testbed.PipeAgent("jbd2", 122, pmns, ourDaemon, "-d", "122"), true},
		{"dso", testbed.DSOAgent("jbd2", 122, so, "jbd2_init", pmns),
			testbed.GoDSOAgent("jbd2", 122, "jbd2_init", pmns), false},
		{"dso named pmdajbd2", testbed.DSOAgent("pmdajbd2", 122, so, "jbd2_init", pmns),
			testbed.GoDSOAgent("pmdajbd2", 122, "jbd2_init", pmns), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			pcpAgents := []testbed.Agent{testbed.PMCDAgent(), c.pcp}
			ourAgents := []testbed.Agent{testbed.PMCDAgent(), c.ours}
			args := metrics
			if c.withSample {
				pcpAgents = append(pcpAgents, testbed.SampleAgent())
				ourAgents = append(ourAgents, testbed.SampleAgent())
				args = append(append([]string{}, metrics...), "sample.long.one", "sample.colour")
			}
			pcpBed := testbed.StartPMCD(t, testbed.Options{Agents: pcpAgents})
			ourBed := testbed.StartGoPMCD(t, testbed.Options{Agents: ourAgents})
			want := pcpBed.Run("pminfo", append([]string{"-h", pcpBed.Host()}, args...)...)
			got := ourBed.Run("pminfo", append([]string{"-h", ourBed.Host()}, args...)...)
			if got.Stdout+got.Stderr != want.Stdout+want.Stderr {
				t.Errorf("pminfo %s:\nours:\n%s%s\nPCP's:\n%s%s", strings.Join(args, " "), got.Stdout, got.Stderr, want.Stdout, want.Stderr)
			}
			if !strings.Contains(want.Stdout, "jbd2.njournals") {
				t.Errorf("PCP's pmcd did not run jbd2:\n%s%s", want.Stdout, want.Stderr)
			}
		})
	}
	t.Run("local", func(t *testing.T) {
		varDir, err := testbed.VarDirEnv(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		ours := pcptest.GoCommandWith(t, "github.com/gopcp/gopcp/cmd/pminfo", pcptest.Build{Companion: true})
		theirs, err := in.Tool("pminfo")
		if err != nil {
			pcptest.Missing(t, err.Error())
		}
		for _, path := range []string{so, strings.TrimSuffix(so, ".so")} {
			args := []string{"-L", "-K", "clear", "-K", "add,122," + path + ",jbd2_init", "-n", pmns, "-l", "jbd2.njournals", "jbd2.transaction.count"}
			run := func(prog string) string {
				cmd := exec.Command(prog, args...)
				cmd.Env = append(os.Environ(), varDir)
				out, _ := cmd.CombinedOutput()
				return string(out)
			}
			want, got := run(theirs), run(ours)
			if got != want {
				t.Errorf("pminfo %s:\nours:\n%s\nPCP's:\n%s", strings.Join(args, " "), got, want)
			}
			if !strings.Contains(want, `"agent":"`+path+`"`) {
				t.Errorf("PCP's pminfo did not name the agent after %s:\n%s", path, want)
			}
		}
	})
}
