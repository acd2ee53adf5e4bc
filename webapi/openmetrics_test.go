package webapi_test

import (
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/httpd/httpstd"
	"github.com/gopcp/gopcp/internal/testing/proxybed"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/webapi"
)

var sampleRe = regexp.MustCompile(`^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (\d+))?$`)

// canonMetrics replaces a sample's timestamp by its presence; everything
// else stays as it is.
func canonMetrics(t *testing.T, text string) (lines []string, stamps []int64) {
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if strings.HasPrefix(l, "#") || strings.HasPrefix(l, "{") || l == "" {
			lines = append(lines, l)
			continue
		}
		m := sampleRe.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("not an OpenMetrics sample: %q", l)
		}
		out := m[1] + "{" + m[2] + "} " + m[3]
		if m[4] != "" {
			ts, _ := strconv.ParseInt(m[4], 10, 64)
			stamps = append(stamps, ts)
			out += " TS"
		}
		lines = append(lines, out)
	}
	return lines, stamps
}

// unstable are the sample agent's metrics whose instances change from one
// fetch to the next (scrambled order, instances that come and go):
// sample.mirage's and mirage_longlong's instances are drawn again on the
// first fetch 10 s after the last draw, which a whole-namespace scrape
// under load (tens of seconds each) crosses between PCP's and ours.
var unstable = []string{"sample_scramble_", "sample_dynamic_", "sample_many_", "sample_proc_", "sample_mirage"}

// withoutValues drops each sample line's value, and the lines of unstable
// metrics.
func withoutValues(lines []string) []string {
	var out []string
	for _, l := range lines {
		name := l
		if f := strings.Fields(l); len(f) >= 3 && f[0] == "#" {
			name = strings.ReplaceAll(f[2], ".", "_")
		}
		skip := false
		for _, u := range unstable {
			if strings.HasPrefix(name, u) {
				skip = true
			}
		}
		if skip {
			continue
		}
		if !strings.HasPrefix(l, "#") {
			if j := strings.LastIndexByte(l, ' '); j > 0 {
				l = l[:j]
			}
		}
		out = append(out, l)
	}
	return out
}

// TestOpenMetricsAgainstPCP compares /metrics and /pmapi/metrics of PCP's
// pmproxy and ours for the sample agent's constant metrics (not
// sample.ulonglong.bin and bin_ctr, which add the seconds since the agent
// started, nor sample.seconds, which sample.dupnames.* names again), line by line,
// labels in pmproxy's order; with times=true it checks that our timestamps are
// milliseconds (PCP's add microseconds to the milliseconds, a bug, so
// theirs are only checked to be there).
func TestOpenMetricsAgainstPCP(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	px := proxybed.Start(t, bed)
	// Our server's bound on one request's PMAPI calls (60 s by default;
	// pmproxy has none) is the test's, as the client's is: at load 60 a
	// -race scrape of the whole namespace passed 60 s, and the metrics
	// whose help and instances were asked for after it went out without
	// them.
	srv := webapi.New(webapi.Options{RequestTimeout: testbed.WaitBound(t)})
	defer srv.Close()
	ours := httptest.NewServer(httpstd.Handler(srv))
	defer ours.Close()
	const names = "sample.long,sample.ulong,sample.longlong,sample.ulonglong.one,sample.ulonglong.ten,sample.ulonglong.hundred,sample.ulonglong.million,sample.float,sample.double,sample.bin,sample.string,pmcd.version"
	compared := 0
	for _, path := range []string{
		"/metrics?HS&names=" + names,
		"/pmapi/metrics?HS&names=" + names,
		"/metrics?HS&names=" + names + "&times=true",
		"/metrics?HS&names=nosuch.metric",
		"/pmapi/_metrics?HS&names=sample.long",
	} {
		theirs := &replayer{base: px.URL(), hs: bed.Host(), client: newClient(), reference: true}
		mine := &replayer{base: ours.URL, hs: bed.Host(), client: newClient()}
		tc, tb := theirs.do(t, step{path, false, ""})
		oc, ob := mine.do(t, step{path, false, ""})
		tl, tstamps := canonMetrics(t, mask(tb))
		ol, ostamps := canonMetrics(t, mask(ob))
		if tc != oc || strings.Join(tl, "\n") != strings.Join(ol, "\n") {
			t.Errorf("%s:\n%s", path, firstDiff(tc, strings.Join(tl, "\n"), oc, strings.Join(ol, "\n")))
		}
		compared += len(tl)
		if len(tstamps) != len(ostamps) {
			t.Errorf("%s: %d timestamps from PCP, %d from ours", path, len(tstamps), len(ostamps))
		}
		for _, ms := range ostamps {
			// Milliseconds since 2020 and before 2100.
			if ms < 1577836800000 || ms > 4102444800000 {
				t.Errorf("%s: timestamp %d is not milliseconds", path, ms)
			}
		}
	}
	// The whole namespace, as Prometheus scrapes it: every metric's
	// header and every sample's name and labels, values aside (many of
	// the sample agent's change from one fetch to the next).
	theirs := &replayer{base: px.URL(), hs: bed.Host(), client: newClient(), reference: true}
	mine := &replayer{base: ours.URL, hs: bed.Host(), client: newClient()}
	_, tb := theirs.do(t, step{"/metrics?HS", false, ""})
	_, ob := mine.do(t, step{"/metrics?HS", false, ""})
	tl, _ := canonMetrics(t, tb)
	ol, _ := canonMetrics(t, ob)
	tl, ol = withoutValues(tl), withoutValues(ol)
	if strings.Join(tl, "\n") != strings.Join(ol, "\n") {
		t.Errorf("/metrics (whole namespace, values aside):\n%s", firstDiff(200, strings.Join(tl, "\n"), 200, strings.Join(ol, "\n")))
	}
	t.Logf("%d OpenMetrics lines compared with PCP's pmproxy, and %d more values aside", compared, len(tl))
}
