package testbed

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSlowAgentStart: PCP's pmcd and ours in a bed serve an agent that
// sends its first PDU 4 s after it is started, past PCP's default of 3 s
// (-q), as the sample agent did at load 70.
func TestSlowAgentStart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	slow := filepath.Join(dir, "slowstart")
	if err := os.WriteFile(slow, []byte("#!/bin/sh\nsleep 4\nexec \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		start func(testing.TB, Options) *PMCD
	}{{"PCP's pmcd", StartPMCD}, {"our pmcd", StartGoPMCD}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			a := SampleAgent()
			a.argv = append([]string{slow}, a.argv...)
			p := c.start(t, Options{Agents: []Agent{PMCDAgent(), a}})
			res := p.Run("pminfo", "-h", p.Host(), "-f", "sample.long.one")
			if res.Err != nil {
				t.Fatalf("%v\n%s", res.Err, res.Stderr)
			}
			if got, want := valueOf(t, res.Stdout, "sample.long.one"), promisedOne(t, p); got != want {
				t.Errorf("sample.long.one = %s, want %s", got, want)
			}
		})
	}
}
