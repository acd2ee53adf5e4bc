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
