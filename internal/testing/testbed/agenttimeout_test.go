package testbed

import "testing"

// TestAgentTimeout: PCP's pmcd and ours in a bed wait agentTimeout
// seconds for an agent (pmcd.control.timeout), and a test's own -t in
// Options.Args wins.
func TestAgentTimeout(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		start func(testing.TB, Options) *PMCD
		args  []string
		want  string
	}{
		{"PCP's pmcd", StartPMCD, nil, agentTimeout},
		{"our pmcd", StartGoPMCD, nil, agentTimeout},
		{"PCP's pmcd with -t 7", StartPMCD, []string{"-t", "7"}, "7"},
		{"our pmcd with -t 7", StartGoPMCD, []string{"-t", "7"}, "7"},
	} {
		p := c.start(t, Options{Agents: []Agent{PMCDAgent()}, Args: c.args})
		res := p.Run("pminfo", "-h", p.Host(), "-f", "pmcd.control.timeout")
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		if got := valueOf(t, res.Stdout, "pmcd.control.timeout"); got != c.want {
			t.Errorf("%s: pmcd.control.timeout = %s, want %s", c.name, got, c.want)
		}
	}
}
