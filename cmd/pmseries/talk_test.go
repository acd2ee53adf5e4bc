package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/redistest"
)

// TestReportTalkLikePCP: the reports of series identifiers (-d, -s, -m,
// -S, -i, -l, -n, -a) and the listings of every name, over an archive
// loaded by PCP's pmseries: PCP's pmseries and ours print the same,
// exit alike, and ask Redis the same commands in the same order on the
// same connections (each seen by a proxy in front of a private
// redis-server). An expression's series (its instances found by
// evaluating it again) is compared in output only: the evaluation asks
// what this module's query evaluation asks.
func TestReportTalkLikePCP(t *testing.T) {
	redistest.Need(t)
	bin := pcptest.NeedTool(t, "pmseries")
	conf := writeConf(t)
	srv := redistest.Start(t)
	loadPCP(t, bin, conf, srv.Port, filepath.Join(qaArchives, "sample-labels"))
	sidOf := func(args ...string) string {
		for _, f := range strings.Fields(runPCP(t, bin, conf, srv.Port, args...)) {
			if isSID(f) {
				return f
			}
		}
		t.Fatalf("PCP's pmseries %q named no series", args)
		return ""
	}
	colour, rapid := sidOf("sample.colour"), sidOf("sample.rapid")
	inst := sidOf("-i", colour)
	src := strings.Fields(runPCP(t, bin, conf, srv.Port, "-s", colour))[2]
	expr := sidOf("max_inst(sample.colour[samples:2])")
	for _, c := range []struct {
		args       string
		outputOnly bool
	}{
		{"-d " + colour, false}, {"-s " + colour, false}, {"-m " + colour, false},
		{"-i " + colour, false}, {"-l " + colour, false}, {"-n " + colour, false},
		{"-a " + colour, false}, {"-a " + rapid, false}, {"-a " + inst, false},
		{"-m -l " + colour + " " + rapid, false}, {"-n -i " + rapid, false},
		{"-S " + src, false}, {"-S " + src + " " + src, false}, {"-S " + colour, false},
		{"-m -g sample.c* " + colour, false},
		{"-m", false}, {"-i", false}, {"-l", false}, {"-S", false}, {"-m -i -l -S", false},
		{"-l -g h*", false}, {"-v hostname", false},
		{"-m " + expr, false}, {"-S " + expr, false}, {"-d " + expr, false},
		{"-i " + expr, true}, {"-a " + expr, true}, {"-n " + expr, true},
	} {
		pcps, ours := throughScript(t, bin, srv.Addr(), conf, nil, strings.Fields(c.args)...)
		if got, want := ours.outcome(), pcps.outcome(); got != want {
			t.Errorf("pmseries %s: ours:\n%s\nPCP's:\n%s", c.args, got, want)
		}
		all := func(string) bool { return true }
		want, got := pcps.talk.lines(all), ours.talk.lines(all)
		if c.outputOnly {
			want, got = untilExpr(want), untilExpr(got)
		}
		if w, g := strings.Join(want, "\n"), strings.Join(got, "\n"); g != w {
			t.Errorf("pmseries %s: ours asked\n%q\nPCP's\n%q", c.args, g, w)
		}
	}
}

// untilExpr is a conversation up to its first look at an expression.
func untilExpr(cmds []string) []string {
	for i, c := range cmds {
		if strings.Contains(c, "HMGET pcp:expr:series:") {
			return cmds[:i+1]
		}
	}
	return cmds
}

// TestLostConnectionLikePCP: the connection closed in place of a reply
// part way through a query or report. PCP's pmseries says the reply is
// missing, then sends nothing more: each command after it is noted as
// not sent (the first said), and it often crashes there, its piped
// standard output lost. Ours says the same, asks the same commands on
// the same connections (nothing sent again on a new one) and exits 1;
// standard output and exit status are compared where PCP's ended
// normally.
func TestLostConnectionLikePCP(t *testing.T) {
	redistest.Need(t)
	bin := pcptest.NeedTool(t, "pmseries")
	conf := writeConf(t)
	srv := redistest.Start(t)
	loadPCP(t, bin, conf, srv.Port, filepath.Join(qaArchives, "sample-labels"))
	colour := strings.Fields(runPCP(t, bin, conf, srv.Port, "sample.colour"))[0]
	// the label value maps PCP's pmseries reads for colour's labels
	port, tk := scriptedRedis(t, srv.Addr())
	runPCPBounded(t, bin, []string{"-c", conf, "-h", "127.0.0.1", "-p", port, "-l", colour})
	var valueMaps []string
	for _, l := range tk.lines(func(c string) bool { return strings.HasSuffix(c, ".value") }) {
		_, cmd, _ := strings.Cut(l, " ")
		valueMaps = append(valueMaps, cmd)
	}
	if len(valueMaps) < 2 {
		t.Fatalf("PCP's pmseries -l read %q", valueMaps)
	}
	for _, c := range []struct{ closeAt, args string }{
		{"SMEMBERS pcp:metric.name:series:", "-m " + colour},
		{"SMEMBERS pcp:metric.name:series:", "-a " + colour},
		{"SMEMBERS pcp:metric.name:series:", "-m -i " + colour},
		{"HGETALL pcp:map:label.name", "-l " + colour},
		{"HMGET pcp:desc:series:", "-a " + colour},
		{"HMGET pcp:inst:series:", "-i -l " + colour},
		{"HVALS pcp:map:metric.name", "-m -i"},
		{"SMEMBERS pcp:series:metric.name:", "sample.colour"},
		{"HGETALL pcp:labelvalue:series:", "-l " + colour},
		{"HGETALL pcp:labelvalue:series:", "-n -i " + colour},
		{valueMaps[0], "-l " + colour},
		{valueMaps[len(valueMaps)-1], "-l " + colour},
		{valueMaps[0], "-n -i " + colour},
		{"HGETALL pcp:map:inst.name", "-i " + colour},
		{"SMEMBERS pcp:instances:series:", "-i " + colour},
		{"HGETALL pcp:map:context.name", "-S " + colour},
	} {
		name := c.closeAt + " " + c.args
		pcps, ours := throughScript(t, bin, srv.Addr(), conf, []scripted{{c.closeAt, ""}}, strings.Fields(c.args)...)
		want, got := pcps.outcome(), ours.outcome()
		if pcps.code < 0 {
			// PCP's crashed after its messages
			want, got = outcome(nil, pcps.errOut, 1), outcome(nil, ours.errOut, ours.code)
		}
		if got != want {
			t.Errorf("%s: ours:\n%s\nPCP's:\n%s", name, got, want)
		}
		all := func(string) bool { return true }
		if w, g := strings.Join(pcps.talk.lines(all), "\n"), strings.Join(ours.talk.lines(all), "\n"); g != w {
			t.Errorf("%s: ours asked\n%s\nPCP's\n%s", name, g, w)
		}
	}
}
