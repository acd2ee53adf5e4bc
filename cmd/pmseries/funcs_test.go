package main

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/series"
	"github.com/gopcp/gopcp/series/resp"
)

// kinds of metric the function queries are asked of: counters and
// instantaneous values, with and without instances, numeric.
type metricKinds struct {
	counter, counterInDom, instant, instantInDom, counter2 string
}

func pickMetrics(t *testing.T, path string) (metricKinds, archive.Label) {
	a, err := archive.Open(path, archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	names, err := a.Meta.Traverse("")
	if err != nil {
		t.Fatal(err)
	}
	var k metricKinds
	for _, n := range names {
		id, err := a.Meta.LookupName(n)
		if err != nil {
			continue
		}
		d, err := a.Meta.Desc(id)
		if err != nil || d.Type > pcp.TypeDouble {
			continue
		}
		null := d.InDom == pcp.InDomNull
		switch {
		case d.Sem == pcp.SemCounter && null && k.counter == "":
			k.counter = n
		case d.Sem == pcp.SemCounter && null && k.counter2 == "" && d.Units == mustDesc(a, k.counter).Units:
			k.counter2 = n
		case d.Sem == pcp.SemCounter && !null && k.counterInDom == "":
			k.counterInDom = n
		case d.Sem != pcp.SemCounter && null && k.instant == "":
			k.instant = n
		case d.Sem != pcp.SemCounter && !null && k.instantInDom == "":
			k.instantInDom = n
		}
	}
	return k, a.Label
}

func mustDesc(a *archive.Archive, name string) pcp.Desc {
	id, err := a.Meta.LookupName(name)
	if err != nil {
		return pcp.Desc{}
	}
	d, _ := a.Meta.Desc(id)
	return d
}

// functionQueries are the queries asked of an archive's metrics: each
// function over a count of samples, a start-finish window and an
// interval, arithmetic between them, the forms without a window (the
// expression's identifier) and refusals.
func functionQueries(k metricKinds, label archive.Label) []string {
	start := strconv.FormatInt(label.Start.Sec+1, 10)
	finish := strconv.FormatInt(label.Start.Sec+600, 10)
	windows := []string{"[samples:3]", "[samples:5]", "[start:" + start + ",finish:" + finish + "]", "[interval:120,samples:3]"}
	var qs []string
	unary := []string{"max", "max_inst", "max_sample", "min", "min_inst", "min_sample", "sum", "sum_inst",
		"sum_sample", "avg", "avg_inst", "avg_sample", "stdev_inst", "stdev_sample", "abs", "floor", "sqrt", "log"}
	for _, m := range []string{k.counter, k.counterInDom, k.instant, k.instantInDom} {
		if m == "" {
			continue
		}
		for _, w := range windows {
			v := m + w
			qs = append(qs, v, "rate("+v+")", "rescale(rate("+v+`), "count/min")`, "log("+v+",10)",
				"topk_sample("+v+", 2)", "nth_percentile_sample("+v+", 50)", v+" * 2", "3 * "+v, v+" * 0.5",
				v+" + "+v, v+" - "+v, v+" * "+v, "max(rate("+v+"))", "sum_sample(rate("+v+"))")
			for _, f := range unary {
				qs = append(qs, f+"("+v+")")
			}
		}
		qs = append(qs, "rate("+m+")", "max("+m+")", m+" + "+m, "sqrt(avg("+m+"))", "rescale("+m+`, "bogus")`,
			"nth_percentile_inst("+m+"[samples:2], 101)", m+"[samples:2] + "+m, "count("+m+")",
			m+`{hostname:"`+label.Hostname+`"}`, m+`{hostname~~"`+label.Hostname[:1]+`*"}`,
			m+`{hostname=="`+label.Hostname+`" || hostname=="nohost"}`, m+`{hostname=="`+label.Hostname+`" && agent!="none"}`,
			"max("+m+`{hostname:"`+label.Hostname+`"}[samples:3])`, "rate("+m+`{metric.name=="`+m+`"}[samples:3])`,
			"avg_sample("+m+`{hostname=~"^`+label.Hostname[:1]+`"}[samples:3])`, "sum("+m+`{hostname!~"^nohost$"})`,
			"x = max("+m+"[samples:2])")
	}
	if k.counter != "" && k.counter2 != "" {
		for _, w := range windows {
			a, b := k.counter+w, k.counter2+w
			qs = append(qs, a+" + "+b, a+" - "+b, "rate("+a+") + rate("+b+")", "rate("+a+") / rate("+b+")",
				"rate("+a+") * "+b, a+" / "+b, a+" * "+b)
		}
	}
	if k.instant != "" && k.counter != "" {
		a, b := k.instant+"[samples:3]", k.counter+"[samples:3]"
		qs = append(qs, a+" + "+b, a+" * "+b, b+" / "+a, a+" - "+b)
	}
	if k.instantInDom != "" && k.instant != "" {
		qs = append(qs, k.instantInDom+"[samples:2] + "+k.instant+"[samples:2]")
	}
	return qs
}

// departures are the functions where PCP 6.0.3 answers wrongly and ours
// does not copy it (docs/series.md): the query is asked of both, ours
// must answer, and a difference is counted, not failed.
var departures = []struct{ fn, why string }{
	{"nth_percentile_sample(", "PCP names it nth_percentile_inst in the canonical expression"},
	{"nth_percentile_inst(", "PCP skips the first sample"},
	{"topk_", "PCP starts its top values at zero and keeps them across instances"},
	{"round(", "PCP rounds a double's bytes read as a float"},
	{"!=", "PCP leaves != unevaluated: it matches nothing"},
	{"sqrt(", "PCP leaves a double's values as they are (its result type is unset)"},
	{"sample.mirage", "its instances change between samples: PCP passes over samples whose instance count is not the first's (their sums and averages 0, other instances' values read for stdev)"},
	{" - ", "PCP never compares the dimensions of + and - operands"},
	{" + ", "PCP never compares the dimensions of + and - operands"},
}

func departure(q, pcps, ours string) string {
	if strings.Contains(q, " * ") && strings.Contains(pcps, "no value") && !strings.Contains(ours, "no value") {
		return "PCP tests an uninitialised product for a signed integer overflow"
	}
	if strings.HasPrefix(pcps, "pmseries: [Error] cannot parse") || strings.HasPrefix(ours, "pmseries: [Error] cannot parse") {
		return "" // syntax: no departure
	}
	if strings.Contains(q, "interval:") || strings.Contains(q, "delta:") {
		return "PCP keeps the entries an interval passes over as empty samples, which its functions count"
	}
	if strings.Contains(q, "(") && countWithBounds(q) {
		return "PCP keeps the entries past a count as empty samples when the window has bounds, which its functions count"
	}
	if strings.HasPrefix(q, "{") && strings.Contains(q, "[samples:") {
		return "PCP reads a filter-only query's values from the oldest, not the most recent"
	}
	for _, d := range departures {
		if strings.Contains(q, d.fn) {
			return d.why
		}
	}
	return ""
}

// runPCPStatus is runPCP with whether PCP's pmseries died of a signal
// (or was killed after a minute: it loops on an unterminated string).
func runPCPStatus(bin, conf string, port int, args ...string) (string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"-c", conf, "-p", strconv.Itoa(port)}, args...)...)
	cmd.Env = append(cmd.Environ(), "TZ=UTC")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	crashed := errors.As(err, &ee) && !ee.Exited()
	return out.String(), crashed
}

// TestFunctionsMatchPCP asks PCP's pmseries and ours the query
// language's functions, arithmetic, label operators and refusals over QA
// archives loaded by PCP's pmseries, and counts the answers alike.
func TestFunctionsMatchPCP(t *testing.T) {
	redistest.Need(t)
	bin := pcptest.NeedTool(t, "pmseries")
	conf := writeConf(t)
	archives := []string{"20041125", "sample-labels", "omnibus_v3", "daily_report", "mirage-3"}
	total, alike, crashed, departed := 0, 0, 0, 0
	descs, descsAlike, descsDeparted := 0, 0, 0
	for _, name := range archives {
		path := filepath.Join(qaArchives, name)
		srv := redistest.Start(t)
		loadPCP(t, bin, conf, srv.Port, path)
		k, label := pickMetrics(t, path)
		var asks [][]string
		for _, q := range functionQueries(k, label) {
			asks = append(asks, []string{q})
			if strings.Contains(q, "[samples:3]") {
				asks = append(asks, []string{"-F", q}) // metadata only: the series
			}
		}
		rc := resp.NewPool(srv.Addr(), resp.Options{})
		defer rc.Close()
		// the descriptor an expression's identifier has, as the last
		// query to name it wrote it
		descOf := func(out string) map[string]string {
			for _, line := range strings.Split(out, "\n") {
				if isSID(line) {
					r, _ := rc.Do(context.Background(), "HGETALL", "pcp:desc:series:"+line)
					return r.StringMap()
				}
			}
			return nil
		}
		for _, args := range asks {
			q := args[len(args)-1]
			total++
			rc.Do(context.Background(), "DEL", "pcp:desc:series:"+expressionID(q))
			want, died := runPCPStatus(bin, conf, srv.Port, args...)
			wantDesc := descOf(want)
			got := runOurs(conf, srv.Port, args...)
			if gotDesc := descOf(got); !died && got == want && wantDesc != nil {
				descs++
				noValues := args[0] == "-F" || !strings.Contains(q, "[")
				switch why := descDeparture(q, noValues, wantDesc, gotDesc); {
				case maps.Equal(wantDesc, gotDesc):
					descsAlike++
				case why != "":
					descsDeparted++
					t.Logf("%s: %q: descriptor departs (%s): PCP's %v, ours %v", name, args, why, wantDesc, gotDesc)
				default:
					t.Errorf("%s: %q: descriptor written by PCP %v, by ours %v", name, args, wantDesc, gotDesc)
				}
			}
			switch {
			case died:
				// ours ran in this process: that it returned is the check
				crashed++
				t.Logf("%s: %q: PCP's pmseries crashed; ours:\n%s", name, args, got)
			case got == want:
				alike++
			case departure(q, want, got) != "":
				departed++
				t.Logf("%s: %q departs (%s):\nPCP's:\n%s\nours:\n%s", name, args, departure(q, want, got), want, got)
			default:
				t.Errorf("%s: pmseries %q:\nPCP's:\n%s\nours:\n%s", name, args, want, got)
			}
		}
	}
	t.Logf("%d function queries over %d archives: %d answered alike, %d where PCP's pmseries crashed (ours answered), %d departures", total, len(archives), alike, crashed, departed)
	t.Logf("%d expression descriptors written by both: %d alike, %d departures", descs, descsAlike, descsDeparted)
}

// expressionID is the identifier a query's expression would have, to
// clear its descriptor before each is asked (any query: a plain one's
// text names no stored expression).
func expressionID(q string) string {
	p, err := series.ParseExpr(q)
	if err != nil || !p.HasFunction() {
		return "none"
	}
	return series.ExprID(series.Canonical(p.Root))
}

// TestSyntaxMatchesPCP asks PCP's pmseries and ours every prefix of a set
// of queries (and a few malformed ones): the refusals, their messages
// and the caret under the point where reading stopped must be PCP's.
func TestSyntaxMatchesPCP(t *testing.T) {
	redistest.Need(t)
	bin := pcptest.NeedTool(t, "pmseries")
	conf := writeConf(t)
	srv := redistest.Start(t)
	loadPCP(t, bin, conf, srv.Port, filepath.Join(qaArchives, "20041125"))
	whole := []string{
		`rate(kernel.all.cpu.user{hostname:"mortenb.oslo.sgi.com"}[samples:3,interval:60])`,
		`rescale(rate(kernel.all.cpu.sys[count:2]), "sec / min") * 2.5`,
		`topk_inst(kernel.all.load[start:1101337807,finish:1101339000], 2) + 3 * kernel.all.load[start:1101337807,finish:1101339000]`,
		`max_sample(disk.dev.read{instance.name=~"dks.*" || agent!="x", hostname~~"m*"}[samples:4])`,
		`x = log(kernel.all.load[tz:"UTC",offset:2,align:"@12:00",samples:2], 10.5)`,
		`nth_percentile_sample(kernel.all.load, 50) / kernel.all.load`,
		`{hostname=="mortenb.oslo.sgi.com"}[samples:1]`,
	}
	var qs []string
	for _, w := range whole {
		for i := 1; i <= len(w); i++ {
			qs = append(qs, w[:i])
		}
	}
	qs = append(qs, "", " ", "[samples:2]", "a{b=='c'}", "a{b<c}", "a{b=~1}", "a{b==1e5}", "a b", "a-b", "a?",
		"count(a)", "rate (a)", "a[samples:99999999999]", "a[10min]", "a[2min,samples:3]", "a[interval:2min]",
		`a[interval:"2 fortnights"]`, `a[start:"yesterday"]`, `a[start:"bogus"]`, `a[samples:2] + a[samples:3]`,
		`a[start:"-10m"] + a[start:"-5m"]`, `a[tz:"UTC"] + a[tz:"EST"]`, `a[interval:2] + a[interval:3]`,
		`a[offset:1] + a[offset:2]`, `a[align:"@10:00"] + a[align:"@11:00"]`, `a[finish:1] + a[end:2]`,
		`a[10min] + a[20min]`, "rate(a, 2)", "topk_inst(a)", "topk_inst(a, 2.5)", "log(a, b)", `rescale(a, 2)`,
		"nth_percentile_inst(a, 100)", "abs(2)", "2 + a", "a / 2", "a + b + c", "a * b / c - d", "(a)", "a,b",
		"a{}", "a{b}", "a{b==}", "a{==c}", "a{b==c,}", "a{b==c d==e}", "a{b==c}{d==e}", "a[samples:1][samples:1]")
	total, alike, pcpFailed := 0, 0, 0
	for _, q := range qs {
		if strings.Count(q, `"`)%2 == 1 {
			continue // PCP's lexer loops for ever on an unterminated string
		}
		total++
		switch askBoth(t, bin, conf, srv.Port, q) {
		case pcpDied:
			pcpFailed++
		case answeredAlike:
			alike++
		}
	}
	t.Logf("%d queries and prefixes: %d answered alike, %d where PCP's pmseries crashed or hung", total, alike, pcpFailed)
}

// TestWindowsMatchPCP asks PCP's pmseries and ours time windows in the
// forms __pmParseHighResTime reads (dates, ctime dates after "@", epoch
// seconds, intervals after the epoch, free-form dates), with time zones,
// alignments, offsets, ranges and intervals in pmParseHighResInterval's
// forms, alone and under functions.
func TestWindowsMatchPCP(t *testing.T) {
	redistest.Need(t)
	bin := pcptest.NeedTool(t, "pmseries")
	conf := writeConf(t)
	srv := redistest.Start(t)
	loadPCP(t, bin, conf, srv.Port, filepath.Join(qaArchives, "20041125"))
	windows := []string{
		`[start:"2004-11-24 23:50:00",samples:2]`,
		`[start:"@Wed Nov 24 23:50:00 2004",finish:"@Wed Nov 24 23:53:00 2004"]`,
		`[tz:"CET-1",start:"2004-11-24 23:50:00",samples:2]`,
		`[start:"2004-11-24 23:50:00",tz:"CET-1",samples:2]`,
		`[timezone:"America/New_York",start:"Nov 24 18:30:00 2004",finish:"Nov 24 18:40:00 2004"]`,
		`[start:"-100000000",samples:2]`,
		`[start:"+1101339000",samples:2]`,
		`[begin:1101339000.5,end:1101339300]`,
		`[start:"Nov 24 23:50:00 2004",finish:"Nov 24 23:53:00 2004"]`,
		`[start:"2004-11-24 23:40:00 UTC",samples:1]`,
		`[start:"@23:50",samples:1]`,
		`[start:"yesterday"]`,
		`[align:"@23:00",samples:2]`,
		`[alignment:"@23:00",start:1101339000,finish:1101339300]`,
		`[offset:2,samples:2]`,
		`[from:3,count:3]`,
		`[10000d,samples:2]`,
		`[interval:"1 min 30 sec",start:1101339000,finish:1101339600]`,
		`[interval:90.5,start:1101339000,finish:1101339600]`,
		`[delta:"2min",samples:3]`,
		`[start:"bogus"]`, `[finish:"2004-13-45"]`, `[interval:"3 fortnights"]`, `[tz:"UTC",tz:"EST"]`,
		`[samples:2,samples:3]`, `[start:1,start:2]`, `[align:"@10:00",align:"@11:00"]`,
	}
	total, alike, pcpFailed, departed := 0, 0, 0, 0
	for _, w := range windows {
		for _, q := range []string{"kernel.all.cpu.user" + w, "kernel.all.load" + w, "rate(kernel.all.cpu.user" + w + ")",
			"max(kernel.all.load" + w + ")", "kernel.all.cpu.user" + w + " + kernel.all.cpu.sys" + w} {
			total++
			switch askBoth(t, bin, conf, srv.Port, q) {
			case pcpDied:
				pcpFailed++
			case answeredAlike:
				alike++
			case departs:
				departed++
			}
		}
	}
	t.Logf("%d windowed queries: %d answered alike, %d where PCP's pmseries crashed, %d departures", total, alike, pcpFailed, departed)
}

// The outcomes of askBoth.
const (
	answeredAlike = iota
	pcpDied       // PCP's pmseries crashed or hung
	departs       // a documented departure (logged with its reason)
	differs       // reported as an error
)

// askBoth asks PCP's pmseries and ours the query q on the server at port
// and says how their answers compare, logging a crash or departure and
// failing the test on any other difference.
func askBoth(t *testing.T, bin, conf string, port int, q string) int {
	t.Helper()
	want, died := runPCPStatus(bin, conf, port, q)
	got := runOurs(conf, port, q)
	switch {
	case died:
		t.Logf("%q: PCP's pmseries crashed or hung; ours:\n%s", q, got)
		return pcpDied
	case got == want:
		return answeredAlike
	case departure(q, want, got) != "":
		t.Logf("%q departs (%s)", q, departure(q, want, got))
		return departs
	}
	t.Errorf("pmseries %q:\nPCP's:\n%s\nours:\n%s", q, want, got)
	return differs
}

// countWithBounds is a window with a count and a start, an end or a
// range: all its entries are read and those past the count kept empty.
func countWithBounds(q string) bool {
	if !strings.Contains(q, "samples:") && !strings.Contains(q, "count:") {
		return false
	}
	for _, k := range []string{"start:", "begin:", "finish:", "end:", "d,", "min,", "h,"} {
		if strings.Contains(q, k) {
			return true
		}
	}
	return false
}

// descDeparture says why the descriptor PCP writes for an expression may
// differ from ours (docs/series.md): each field that differs must have
// a reason.
func descDeparture(q string, noValues bool, pcps, ours map[string]string) string {
	var whys []string
	for k, v := range pcps {
		o := ours[k]
		switch {
		case v == o:
		case k == "semantics" && v == "instance" && o == "instant":
			whys = append(whys, `PCP's semantics "instance" is none`)
		case k == "type" && v == "UNKNOWN":
			whys = append(whys, "PCP's log and sqrt take their type from the last value computed")
		case k == "type" && (noValues || strings.EqualFold(v, o)):
			whys = append(whys, "PCP sets an operation's type from its values, keeping the left operand's without them")
		case k == "units" && (strings.Contains(q, " + ") || strings.Contains(q, " - ") || strings.Contains(q, " * ")) && sameDims(v, o):
			whys = append(whys, "PCP loses the operands' scales (Kbyte + Kbyte written byte, count/sec count/nanosec)")
		default:
			return ""
		}
	}
	return strings.Join(whys, "; ")
}

// sameDims is units of the same dimensions, whatever their scales.
func sameDims(a, b string) bool {
	ua, _, err1 := pcp.ParseUnits(a)
	ub, _, err2 := pcp.ParseUnits(b)
	return err1 == nil && err2 == nil && ua.DimSpace == ub.DimSpace && ua.DimTime == ub.DimTime && ua.DimCount == ub.DimCount
}
