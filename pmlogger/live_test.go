package pmlogger

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pmapi"
)

// liveConfig exercises singular and instanced metrics, strings, counters,
// an instance list, a metric whose instances change between fetches
// (sample.dynamic via sample.many / sample.bin) and two intervals.
const liveConfig = `
# the sample agent and pmcd
log mandatory on 50 msec {
	sample.long.one
	sample.colour
	sample.seconds
	sample.string.hullo
	sample.bin [ "bin-100" "bin-300", 500 ]
	sample.mirage
	pmcd.pmlogger
}
log mandatory on once { sample.ulong }
log advisory on 100 msec { sample.double.ten sample.long.one }
log mandatory off { sample.double }
`

// logWithOurs records cfg from p's pmcd for samples fetches with the
// library, in this process.
func logWithOurs(t *testing.T, p *testbed.PMCD, base, cfgText string, opt Options) {
	t.Helper()
	ctx := context.Background()
	src, err := pmapi.NewHostContext(ctx, p.Host())
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	cfgFile := filepath.Join(filepath.Dir(base), "config")
	cfg, err := ParseConfig(cfgText, cfgFile, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	opt.Archive = base
	opt.ConfigFile = cfgFile
	var log strings.Builder
	opt.Log = &log
	l, err := New(ctx, src, cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), "Warning") {
		t.Logf("logger messages:\n%s", log.String())
	}
}

// TestArchiveAgainstPCP logs from PCP's pmcd with our logger (versions 2
// and 3) and checks the archive with PCP's own tools: pmlogcheck finds
// nothing wrong, and PCP's pmdumplog -a prints what ours prints.
func TestArchiveAgainstPCP(t *testing.T) {
	p := testbed.StartPMCD(t, testbed.Options{})
	ourDump := pcptest.GoCommand(t, "github.com/gopcp/gopcp/cmd/pmdumplog")
	for _, v := range []int{3, 2} {
		base := filepath.Join(t.TempDir(), "ours")
		logWithOurs(t, p, base, liveConfig, Options{Version: v, Samples: 12})
		res := p.Run("pmlogcheck", base)
		if res.Err != nil || strings.TrimSpace(res.Stdout) != "" {
			t.Errorf("v%d: PCP's pmlogcheck: %v\n%s%s", v, res.Err, res.Stdout, res.Stderr)
		}
		for _, args := range [][]string{{"-a"}, {"-a", "-x"}, {"-dilLmst"}, {"-e", "-h"}} {
			pcpOut := p.Run("pmdumplog", append(args, base)...)
			if pcpOut.Err != nil {
				t.Fatalf("v%d: PCP's pmdumplog %v: %v\n%s", v, args, pcpOut.Err, pcpOut.Stderr)
			}
			b, err := exec.Command(ourDump, append(args, base)...).CombinedOutput()
			if err != nil {
				t.Fatalf("v%d: our pmdumplog %v: %v\n%s", v, args, err, b)
			}
			if string(b) != pcpOut.Stdout {
				t.Errorf("v%d: pmdumplog %v differs:\n%s", v, args, diff(pcpOut.Stdout, string(b)))
			}
		}
		if v == 3 {
			out := p.Run("pmdumplog", "-i", base).Stdout
			if !regexp.MustCompile(`InDom: 29\.\d+`).MatchString(out) {
				t.Errorf("no sample instance domains in\n%s", out)
			}
		}
	}
}

// diff shows the first differing lines of two texts.
func diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	n := 0
	for i := 0; i < max(len(w), len(g)) && n < 10; i++ {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			b.WriteString("line " + strconv.Itoa(i+1) + ":\n  PCP:  " + a + "\n  ours: " + c + "\n")
			n++
		}
	}
	return b.String()
}

// TestSameAsPCPLogger records the same configuration from the same pmcd
// with PCP's pmlogger and ours: the descriptors, instance domains, label
// sets and help text read back identically (times and the loggers' own
// process aside), and the records have the same shapes.
//
// The sample agent draws sample.mirage's instances again, at random, on
// the first fetch 10 s after its last draw: loggers run one after the
// other saw different instances once the four runs took longer than
// that (at load 90 each took 10 s). So they are drawn once before the
// loggers start and then kept for an hour (sample.controller.mirage);
// TestArchiveAgainstPCP, whose one archive both dumpers read, keeps
// them changing.
func TestSameAsPCPLogger(t *testing.T) {
	p := testbed.StartPMCD(t, testbed.Options{})
	for _, args := range [][]string{
		{"pmstore", "-h", p.Host(), "sample.controller.mirage", "3600000"},
		{"pminfo", "-h", p.Host(), "-f", "sample.mirage"},
	} {
		if res := p.Run(args[0], args[1:]...); res.Err != nil {
			t.Fatalf("%v: %v\n%s", args, res.Err, res.Stderr)
		}
	}
	for _, v := range []string{"3", "2"} {
		l := p.StartLogger(t, testbed.LoggerOptions{
			Config: liveConfig,
			Name:   "pcp" + v,
			Args:   []string{"-V", v, "-s", "40"},
		})
		if err := l.Wait(testbed.WaitBound(t)); err != nil {
			t.Fatal(err)
		}
		l.Close()
		ours := filepath.Join(t.TempDir(), "ours")
		logWithOurs(t, p, ours, liveConfig, Options{Version: int(v[0] - '0'), Samples: 40})
		for _, flag := range []string{"-d", "-i", "-e", "-h", "-L"} {
			want := normalise(p.Run("pmdumplog", flag, l.Archive).Stdout)
			got := normalise(p.Run("pmdumplog", flag, ours).Stdout)
			if want != got {
				t.Errorf("v%s: pmdumplog %s differs:\n%s", v, flag, diff(want, got))
			}
		}
		want := shapes(p.Run("pmdumplog", l.Archive).Stdout)
		got := shapes(p.Run("pmdumplog", ours).Stdout)
		if want != got {
			t.Errorf("v%s: record shapes differ:\nPCP:\n%s\nours:\n%s", v, want, got)
		}
	}
}

var (
	timeRE    = regexp.MustCompile(`\d\d:\d\d:\d\d\.\d+`)
	dateRE    = regexp.MustCompile(`\w\w\w \w\w\w [ \d]\d \d\d:\d\d:\d\d\.\d+ \d{4}`)
	loggerRE  = regexp.MustCompile(`(?m)^\s*\d+ or "\d+"$`)
	pidLineRE = regexp.MustCompile(`(?m)^PID for pmlogger: \d+$`)
)

// normalise removes what must differ between two loggers' archives:
// times, the loggers' process ids, and the order of blocks.
func normalise(s string) string {
	s = dateRE.ReplaceAllString(s, "DATE")
	s = timeRE.ReplaceAllString(s, "TIME")
	s = loggerRE.ReplaceAllString(s, "   LOGGER")
	s = pidLineRE.ReplaceAllString(s, "PID for pmlogger: PID")
	// Blocks start at unindented lines; sort them, as hash order may
	// differ with the order of first use.
	var blocks []string
	for _, line := range strings.Split(s, "\n") {
		if line == "" {
			continue
		}
		if line == "TIME" {
			continue // a label record's time: its sets stand alone
		}
		start := line[0] != ' ' && line[0] != '\t'
		if strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, "     ") && strings.Contains(line, " labels ") {
			start = true
		}
		if start || len(blocks) == 0 {
			blocks = append(blocks, line)
			continue
		}
		blocks[len(blocks)-1] += "\n" + line
	}
	// A label or help entry of one time is a run of indented lines.
	slices.Sort(blocks)
	blocks = slices.Compact(blocks)
	return strings.Join(blocks, "\n")
}

// shapes lists the distinct shapes of a dump's records: the metrics and
// how many values each has.
func shapes(dump string) string {
	seen := map[string]bool{}
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			slices.Sort(cur)
			seen[strings.Join(cur, " ")] = true
		}
		cur = nil
	}
	head := regexp.MustCompile(`^\d\d:\d\d:\d\d\.\d+ \d+ metrics?$`)
	metric := regexp.MustCompile(`^    (\d+\.\d+\.\d+) \(([^)]*)\):(.*)$`)
	n := -1
	for _, line := range strings.Split(dump, "\n") {
		switch {
		case head.MatchString(line):
			flush()
		case metric.MatchString(line):
			m := metric.FindStringSubmatch(line)
			if strings.HasPrefix(m[2], "pmcd.pmlogger") || m[2] == "pmcd.pid" || m[2] == "pmcd.seqnum" {
				cur = append(cur, m[1])
				n = -1
				continue
			}
			if strings.Contains(m[3], "value") {
				cur = append(cur, m[1]+"=1")
			} else {
				cur = append(cur, m[1]+"=")
				n = len(cur) - 1
			}
		case strings.HasPrefix(line, "        inst [") && n >= 0:
			cur[n] += "+"
		}
	}
	flush()
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return strings.Join(keys, "\n")
}

// TestReportAgainstPCP compares -r's report of each task with PCP's.
func TestReportAgainstPCP(t *testing.T) {
	p := testbed.StartPMCD(t, testbed.Options{})
	const cfg = "log mandatory on 100 msec { sample.long.one sample.colour }\nlog mandatory on 2 sec sample.seconds\nlog mandatory on once { sample.ulong.one }\n"
	l := p.StartLogger(t, testbed.LoggerOptions{Config: cfg, Name: "pcpr", Args: []string{"-V", "3", "-s", "30", "-r"}})
	if err := l.Wait(60 * time.Second); err != nil {
		t.Fatal(err)
	}
	l.Close()
	pcpLog, _ := os.ReadFile(l.LogPath)
	var rep strings.Builder
	logWithOurs(t, p, filepath.Join(t.TempDir(), "ours"), cfg, Options{Version: 3, Samples: 30, Report: &rep})
	// PCP's pmlogger lists the once-only task first or last from run to
	// run (as it has or has not yet been done when the report is made),
	// so the entries are compared in sorted order.
	re := regexp.MustCompile(`(?s)\n(Group \[.*?\}|Metric \S+) logged [^\n]*\n`)
	entries := func(s string) string {
		e := re.FindAllString(s, -1)
		slices.Sort(e)
		return strings.Join(e, "")
	}
	want, got := entries(string(pcpLog)), entries(rep.String())
	if want == "" || want != got || len(got) != len(rep.String()) {
		t.Errorf("-r report:\nPCP:\n%s\nours:\n%s", want, rep.String())
	}
}
