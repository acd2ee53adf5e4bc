package testbed

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestStartGoPMCD runs gopcp's pmcd with a Go agent in-process and PCP's
// sample agent on a pipe, and checks that PCP's pminfo gets values from
// both through it, the sample value agreeing with PCP's own pmcd.
func TestStartGoPMCD(t *testing.T) {
	t.Parallel()
	ns := filepath.Join(t.TempDir(), "root_trivial")
	if err := os.WriteFile(ns, []byte("root {\n\ttrivial\n}\ntrivial {\n\ttime\t250:0:0\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := Options{Agents: []Agent{
		GoDSOAgent("trivial", 250, "trivial_init", ns),
		SampleAgent(),
	}}
	g := StartGoPMCD(t, opts)
	if !g.IsGo() {
		t.Error("StartGoPMCD bed does not say it runs gopcp's pmcd")
	}
	res := g.Run("pminfo", "-h", g.Host(), "-f", "trivial.time", "sample.long.one")
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if !regexp.MustCompile(`(?m)^trivial.time\n    value \d+$`).MatchString(res.Stdout) {
		t.Errorf("no trivial.time value:\n%s", res.Stdout)
	}
	ref := StartPMCD(t, Options{})
	if got, want := valueOf(t, res.Stdout, "sample.long.one"), promisedOne(t, ref); got != want {
		t.Errorf("gopcp pmcd: sample.long.one = %s, PCP's sample help promises %s", got, want)
	}
	if g.PID() <= 0 || g.Dir() == "" {
		t.Errorf("PID %d Dir %q", g.PID(), g.Dir())
	}
	if _, err := os.Stat(g.LogPath()); err != nil {
		t.Errorf("pmcd log: %v", err)
	}
}
