package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/redistest"
)

// TestLoadExpressionsMatchPCP runs pmseries --load with PCP's load
// expressions and refusals, PCP's into one Redis and ours into another:
// the exit status, standard output and standard error alike, and the
// metric names then in each Redis alike (a metric.name filter loading
// only that metric or subtree, an unknown one warned of and everything
// loaded).
func TestLoadExpressionsMatchPCP(t *testing.T) {
	redistest.Need(t)
	bin := pcptest.NeedTool(t, "pmseries")
	conf := writeConf(t)
	labels := filepath.Join(qaArchives, "sample-labels")
	old := filepath.Join(qaArchives, "20041125")
	dir := t.TempDir()
	cases := [][]string{
		{"--load", `{source.path:"` + labels + `", metric.name:"sample.colour"}`},
		{"--load", `{source.path:"` + old + `", m.name:"kernel.all"}`},
		{"--load", `{source.path:"` + old + `", metric.name:"kernel.all.load", metric.name:"mem"}`},
		{"--load", `{source.path:"` + labels + `", metric.name:"nosuch"}`},
		{"--load", `{source.path:"` + labels + `"}`},
		{"-L", labels},
		{"--load", "nosuch"}, {"--load", "nonsense{"}, {"--load", `{source.name:"x"}`},
		{"--load", `{source.path:"/nonexistent"}`}, {"--load", `{source.path:"` + dir + `"}`},
		{"--load", `{source.path:""}`}, {"--load", "/nonexistent"}, {"--load", "sample.colour"},
		{"--load", "[samples:1]"}, {"--load"},
	}
	same := 0
	for _, args := range cases {
		pcpSrv, ourSrv := redistest.Start(t), redistest.Start(t)
		want := pcpAnswer(t, bin, conf, pcpSrv.Port, args...)
		got := ourAnswer(conf, ourSrv.Port, args...)
		if got != want {
			t.Errorf("pmseries %q:\nPCP's:\n%s\nours:\n%s", args, want, got)
			continue
		}
		wantNames := sortedLines(runPCP(t, bin, conf, pcpSrv.Port, "-m"))
		gotNames := sortedLines(runPCP(t, bin, conf, ourSrv.Port, "-m"))
		if !slices.Equal(wantNames, gotNames) {
			t.Errorf("pmseries %q: metric names loaded by PCP's:\n%q\nby ours:\n%q", args, wantNames, gotNames)
			continue
		}
		same++
	}
	t.Logf("%d of %d loads answered alike, with the same metric names loaded", same, len(cases))
}

func sortedLines(s string) []string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	slices.Sort(l)
	return l
}
