package testbed

import (
	"os"
	"slices"
	"testing"
)

// The testdata files are pminfo -f pmcd.agent.status output from PCP
// 6.0.3's pmcd: one with pmcd and sample running, one where pmdasample
// was given a bad option and so failed its start-up handshake.
func TestNotRunning(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file   string
		agents []Agent
		want   []string
	}{
		{"pminfo-agent-status.txt", DefaultAgents(), nil},
		{"pminfo-agent-status-dead.txt", DefaultAgents(), []string{"sample"}},
		{"pminfo-agent-status.txt", []Agent{PMCDAgent(), SampleAgent(), LinuxAgent()}, []string{"linux"}},
		{"pminfo-agent-status-dead.txt", []Agent{PMCDAgent()}, nil},
	}
	for _, tt := range tests {
		out, err := os.ReadFile("testdata/" + tt.file)
		if err != nil {
			t.Fatal(err)
		}
		if got := notRunning(string(out), tt.agents); !slices.Equal(got, tt.want) {
			t.Errorf("%s: notRunning = %v, want %v", tt.file, got, tt.want)
		}
	}
}

// TestGiven: the agents whose status says pmcd gave up on them (2, 4, 8
// and their combinations), not those on their way (1) or expected to fail.
func TestGiven(t *testing.T) {
	t.Parallel()
	dead, err := os.ReadFile("testdata/pminfo-agent-status-dead.txt")
	if err != nil {
		t.Fatal(err)
	}
	status := func(v string) string {
		return "\npmcd.agent.status\n    inst [2 or \"pmcd\"] value 0\n    inst [29 or \"sample\"] value " + v + "\n"
	}
	failing := SampleAgent()
	failing.failing = true
	tests := []struct {
		pminfo string
		agents []Agent
		want   []string
	}{
		{string(dead), DefaultAgents(), []string{"sample"}},
		{string(dead), []Agent{PMCDAgent(), failing}, nil},
		{status("0"), DefaultAgents(), nil},
		{status("1"), DefaultAgents(), nil},
		{status("2"), DefaultAgents(), []string{"sample"}},
		{status("8"), DefaultAgents(), []string{"sample"}},
		{status("9"), DefaultAgents(), []string{"sample"}},
	}
	for _, tt := range tests {
		if got := given(tt.pminfo, tt.agents); !slices.Equal(got, tt.want) {
			t.Errorf("given(%q) = %v, want %v", tt.pminfo, got, tt.want)
		}
	}
}
