package trace_test

import (
	"fmt"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/stepclock"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestSameAsPCPStepByStep runs PCP's pmdatrace with its clock and interval
// timer in the test's hands (stepclock: clock_gettime reads a file,
// setitimer arms nothing, the test sends SIGALRM) and ours with the same
// steps (ManualTicks, closing an interval on SIGALRM), feeds both the same
// stream through the proxy in parts, and moves the clock one interval at
// a time past bucket boundaries, comparing pminfo -f trace (rates,
// windowed counts, times and values) after every step: data enter the
// window once their interval closes and leave it -N intervals later.
func TestSameAsPCPStepByStep(t *testing.T) {
	feed, _, _ := programs(t)
	tick := pcptest.GoCommand(t, "./testdata/tickagent")
	in := testbed.Need(t)
	root := pmnsRoot(t, in)
	envBin, err := exec.LookPath("env")
	if err != nil {
		t.Skip(err)
	}
	const period, buckets = 30, 3
	interval := time.Duration(period/buckets) * time.Second
	clk := stepclock.New(t, time.Unix(1700000000, 0))
	window := []string{"-T", strconv.Itoa(period), "-N", strconv.Itoa(buckets)}

	pcpArgv := append([]string{envBin}, clk.Env("pcp")...)
	// -M: pmdatrace becomes user pcp by default, who could neither read
	// the clock file nor write the note in the test's directory; as the
	// test's own user it keeps both.
	me, err := user.Current()
	if err != nil {
		t.Skip(err)
	}
	pcpArgv = append(append(pcpArgv, filepath.Join(in.Var("PCP_PMDAS_DIR"), "trace", "pmdatrace"), "-M", me.Username), window...)
	pcpBed, pcpPort := bedWith(t, root, pcpArgv...)
	goArgv := append([]string{envBin, stepclock.EnvNote + "=" + clk.NotePath("go"), tick}, window...)
	goBed, goPort := bedWith(t, root, goArgv...)
	clk.Ready("pcp")
	clk.Ready("go")
	x := newTee(t, pcpPort, goPort)
	env := []string{"PCP_TRACE_HOST=127.0.0.1", "PCP_TRACE_PORT=" + strconv.Itoa(x.port()), "PATH=/usr/bin:/bin"}

	send := func(script string) func() {
		return func() {
			cmd := exec.Command(feed)
			cmd.Env = env
			cmd.Stdin = strings.NewReader(script)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("tracefeed: %v\n%s", err, out)
			}
		}
	}
	roll := func() {
		clk.Advance(interval)
		clk.Alarm("pcp")
		clk.Alarm("go")
	}
	part := func(round int) string {
		var b strings.Builder
		for i := 0; i <= round; i++ {
			fmt.Fprintf(&b, "point p%d\npoint shared\nobs o%d %d.%d\ncounter c%d %d\ncounter shared %d\n", (round+i)%3, i%2, round*7+i, i, i%4, round*10+i, i)
			fmt.Fprintf(&b, "begin t%d\nend t%d\n", (round+i)%3, (round+i)%3)
		}
		if round%2 == 0 {
			b.WriteString("begin aborted\nabort aborted\n")
		}
		return b.String()
	}
	steps := []struct {
		what string
		do   func()
	}{
		{"start", func() {}},
		{"first part", send(part(0))},
		{"interval 1 closes", roll},
		{"second part", send(part(1))},
		{"interval 2 closes", roll},
		{"third part", send(part(2))},
		{"interval 3 closes", roll},
		{"interval 4 closes: the first part leaves", roll},
		{"fourth part", send(part(3))},
		{"interval 5 closes: the second part leaves", roll},
		{"interval 6 closes: the third part leaves", roll},
		{"interval 7 closes", roll},
		{"interval 8 closes: the window is empty", roll},
	}
	var pcpOut, goOut string
	rated, distinct := 0, map[string]bool{}
	for i, s := range steps {
		s.do()
		pcpOut, goOut = values(t, pcpBed), values(t, goBed)
		if pcpOut != goOut {
			t.Fatalf("step %d (%s): pminfo -f trace differs\nPCP's pmdatrace:\n%s\ngopcp's:\n%s", i, s.what, pcpOut, goOut)
		}
		distinct[pcpOut] = true
		if len(section(pcpOut, "trace.point.rate")) > 0 {
			rated++
		}
	}
	// The steps must have moved PCP's window: rates came and went, and
	// the last leaves counts without rates.
	if rated < 5 || len(distinct) < 8 {
		t.Errorf("PCP's window hardly moved: rates at %d steps, %d distinct answers", rated, len(distinct))
	}
	if len(section(pcpOut, "trace.point.count")) == 0 || len(section(pcpOut, "trace.point.rate")) != 0 {
		t.Errorf("after the window emptied, want counts and no rates:\n%s", pcpOut)
	}
	t.Logf("%d steps equal, rates at %d, %d distinct answers", len(steps), rated, len(distinct))
}
