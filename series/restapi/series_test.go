package restapi

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/httpd/httpstd"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/internal/testing/seriestest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/series"
	"github.com/gopcp/gopcp/series/resp"
)

// startPCPProxy runs PCP's pmproxy with its series servlet on Redis at
// port. PCP 6.0.3's pmproxy connects to its -h/-r server, not to the
// configuration's servers, so both are given.
func startPCPProxy(t *testing.T, redisPort int) string {
	t.Helper()
	base, _ := startPCPProxyStop(t, redisPort)
	return base
}

// startPCPProxyStop is startPCPProxy with a function that stops it (it
// is stopped at the test's end anyway).
func startPCPProxyStop(t *testing.T, redisPort int) (string, func()) {
	t.Helper()
	bin := pcptest.NeedTool(t, "pmproxy")
	dir := t.TempDir()
	for _, d := range []string{"run", "tmp"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	conf := filepath.Join(dir, "pmproxy.conf")
	os.WriteFile(conf, []byte("[pmproxy]\npcp.enabled = false\nhttp.enabled = true\n[redis]\nenabled = true\nservers = 127.0.0.1:"+
		strconv.Itoa(redisPort)+"\n[discover]\nenabled = false\n[pmsearch]\nenabled = false\n[pmseries]\nenabled = true\n"), 0o644)
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	cmd := exec.Command(bin, "-f", "-A", "-p", strconv.Itoa(port), "-h", "127.0.0.1", "-r", strconv.Itoa(redisPort),
		"-c", conf, "-l", filepath.Join(dir, "pmproxy.log"), "-s", filepath.Join(dir, "run", "sock"))
	cmd.Env = append(os.Environ(), "PCP_RUN_DIR="+filepath.Join(dir, "run"), "PCP_TMP_DIR="+filepath.Join(dir, "tmp"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	stop := func() { once.Do(func() { cmd.Process.Kill(); cmd.Wait() }) }
	t.Cleanup(stop)
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	for i := 0; i < 300; i++ {
		if st, _ := do(t, base, "GET", "/series/query?expr=sample.colour", ""); st == 200 {
			return base, stop
		}
		time.Sleep(100 * time.Millisecond)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "pmproxy.log"))
	t.Fatalf("PCP's pmproxy not answering /series/query:\n%s", b)
	return "", nil
}

func do(t *testing.T, base, method, path, body string) (int, string) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, method, base+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	// no keep-alive: PCP's pmproxy sends a second, unsolicited response
	// after a refused request, which would answer the next one
	resp, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestHTTPMatchesPCP asks PCP's pmproxy and our handler the same /series
// requests over one Redis loaded by PCP's pmseries --load.
func TestHTTPMatchesPCP(t *testing.T) {
	srv := redistest.Start(t)
	seriestest.PCPLoad(t, srv.Port, seriestest.WriteConf(t), filepath.Join(qaArchives, "sample-labels"))
	pcpBase := startPCPProxy(t, srv.Port)
	ours := httptest.NewServer(httpstd.Handler(Handler(series.NewStore(client(t, srv)))))
	defer ours.Close()

	_, q := do(t, pcpBase, "GET", "/series/query?expr=sample.colour", "")
	sid := strings.Trim(strings.TrimSpace(q), `[]"`)
	if len(sid) != 40 {
		t.Fatalf("query answer %q", q)
	}
	insts, err := series.NewStore(client(t, srv)).Instances(context.Background(), []string{sid})
	if err != nil || len(insts) == 0 {
		t.Fatalf("instances of %s: %v %v", sid, insts, err)
	}
	inst, src := insts[0].Instance, insts[0].Source
	reqs := []struct{ method, path, body string }{
		{"GET", "/series/ping", ""},
		// match parameters: fnmatch patterns over every name of a kind
		{"GET", "/series/metrics?match=sample.c*", ""},
		{"GET", "/series/metrics?match=", ""},
		{"GET", "/series/metrics?match=" + url.QueryEscape("*[[:digit:]]*"), ""},
		{"POST", "/series/metrics", "match=" + url.QueryEscape("[!s]*")},
		{"GET", "/series/instances?match=r*", ""},
		{"GET", "/series/instances?match=", ""},
		{"GET", "/series/values?match=sample.*", ""},
		{"GET", "/series/values", ""},
		{"GET", "/series/values?client=x&samples=1", ""},
		{"GET", "/series/descs?match=sample.*", ""},
		{"GET", "/series/labels?match=h*", ""},
		{"GET", "/series/labels?client=c&match=*o*", ""},
		{"GET", "/series/sources?match=*sample*", ""},
		{"GET", "/series/sources?match=/var/*", ""},
		{"GET", "/series/sources?source=" + src, ""},
		{"GET", "/series/descs?series=" + inst, ""},
		{"GET", "/series/descs?series=" + sid + "," + inst + ",0000000000000000000000000000000000000000", ""},
		{"GET", "/series/query?expr=sample.colour", ""},
		{"GET", "/series/query?expr=sample.*", ""},
		{"GET", "/series/query?expr=nosuch.metric", ""},
		{"GET", "/series/query?expr=sample.colour[samples:2]", ""},
		{"POST", "/series/query", "expr=sample.colour"},
		{"GET", "/series/metrics", ""},
		{"GET", "/series/metrics?series=" + sid, ""},
		{"POST", "/series/metrics", "series=" + sid},
		{"GET", "/series/descs?series=" + sid, ""},
		{"GET", "/series/instances?series=" + sid, ""},
		{"GET", "/series/labels", ""},
		{"GET", "/series/labels?series=" + sid, ""},
		{"GET", "/series/labels?names=hostname", ""},
		{"GET", "/series/sources?match=*", ""},
		{"GET", "/series/values?series=" + sid, ""},
		{"GET", "/series/values?series=" + sid + "&samples=2", ""},
		{"POST", "/series/values", "series=" + sid + "&count=1"},
		{"GET", "/series/query?expr=" + url.QueryEscape(`sample.colour{hostname=="shard"}`), ""},
		{"GET", "/series/query?expr=sample.colour[start:0,finish:1580167912,interval:1]", ""},
		{"GET", "/series/labels?names=hostname,agent", ""},
		{"POST", "/series/labels", "name=agent"},
		{"GET", "/series/instances", ""},
		{"GET", "/series/values?series=" + sid + "&start=0&finish=1580167911.1", ""},
		{"GET", "/series/valuesXYZ?series=" + sid, ""},
		{"GET", "/series/values?series=" + sid + "&start=" + url.QueryEscape("@Mon Jan 27 23:31:51 2020"), ""},
		{"GET", "/series/values?series=" + sid + "&begin=" + url.QueryEscape("2020-01-27 23:31:51") + "&end=1580167912", ""},
		{"GET", "/series/values?series=" + sid + "&range=100000d&count=1", ""},
		{"GET", "/series/values?series=" + sid + "&samples=0", ""},
		{"GET", "/series/values?series=" + sid + "&offset=1&align=" + url.QueryEscape("@23:00"), ""},
		{"GET", "/series/values?series=" + sid + "&zone=UTC&delta=" + url.QueryEscape("1 min"), ""},
		{"GET", "/series/values?series=" + sid + "&start=bogus", ""},
		{"GET", "/series/values?series=" + sid + "&start=1e300", ""},
		{"GET", "/series/values?series=" + sid + "&start=NaN&finish=Inf", ""},
		{"GET", "/series/values?series=" + sid + "&finish=-1e300", ""},
		{"GET", "/series/values?series=" + sid + "&samples=2x", ""},
		{"GET", "/series/values?series=" + sid + "&interval=" + url.QueryEscape("3 fortnights"), ""},
		{"GET", "/series/ping?client=abc", ""},
		{"GET", "/series/query?client=7&expr=sample.colour", ""},
		{"GET", "/series/query?client=7&expr=nosuch", ""},
		{"GET", "/series/query?client=7&expr=" + url.QueryEscape("sample.colour[samples:1]"), ""},
		{"POST", "/series/metrics", "client=q&series=" + sid},
		{"GET", "/series/labels?client=x&names=nosuch", ""},
		{"GET", "/series/query?client=x&expr=" + url.QueryEscape("a{"), ""},
		{"GET", "/series/query", ""},
		{"GET", "/series/query?expr=", ""},
		// functions, arithmetic, label operators
		{"GET", "/series/query?expr=" + url.QueryEscape("rate(sample.rapid[samples:3])"), ""},
		{"GET", "/series/query?expr=" + url.QueryEscape("max(sample.colour[samples:3])"), ""},
		{"GET", "/series/query?expr=" + url.QueryEscape("sample.colour[samples:2] + sample.colour[samples:2]"), ""},
		{"GET", "/series/query?expr=" + url.QueryEscape("sum_sample(sample.colour[samples:2])"), ""},
		{"GET", "/series/query?client=9&expr=" + url.QueryEscape("avg_inst(sample.colour[samples:3])"), ""},
		{"GET", "/series/query?expr=" + url.QueryEscape("rate(sample.rapid)"), ""},
		{"GET", "/series/query?expr=" + url.QueryEscape("3 * sample.colour"), ""},
		{"GET", "/series/query?expr=" + url.QueryEscape("rate(sample.colour)"), ""},
		{"GET", "/series/query?expr=" + url.QueryEscape("sample.rapid / sample.colour"), ""},
		{"GET", "/series/query?expr=" + url.QueryEscape(`sample.colour{hostname:"shard"}`), ""},
		{"GET", "/series/query?expr=" + url.QueryEscape(`sample.colour{hostname:"sh*" || hostname=="x"}`), ""},
		{"POST", "/series/query", "expr=" + url.QueryEscape(`rescale(rate(sample.rapid{hostname=="shard"}[samples:3]), "count / min")`)},
		{"GET", "/series/query?expr=" + url.QueryEscape("rate(sample.rapid[samples:3]"), ""},
		{"GET", "/series/descs?series=" + series.ExprID("rate(sample.rapid)"), ""},
		{"GET", "/series/values?series=" + series.ExprID("max(sample.colour)") + "&samples=3", ""},
		{"GET", "/series/descs?series=", ""},
	}
	equal := 0
	for _, r := range reqs {
		ps, pb := do(t, pcpBase, r.method, r.path, r.body)
		os, ob := do(t, ours.URL, r.method, r.path, r.body)
		if strings.Contains(r.path, "instances") {
			// instances come in Redis's set order, which differs
			// between PCP's reader and ours: compared as sets
			pb, ob = sortedElems(pb), sortedElems(ob)
		}
		if ps != os || pb != ob {
			t.Errorf("%s %s %s:\n PCP  %d %q\n ours %d %q", r.method, r.path, r.body, ps, pb, os, ob)
			continue
		}
		equal++
	}
	t.Logf("%d of %d /series requests equal to PCP's pmproxy's in status and body", equal, len(reqs))
}

func sortedElems(b string) string {
	e := strings.Split(strings.Trim(strings.TrimSpace(b), "[{}]"), "},{")
	sort.Strings(e)
	return strings.Join(e, "|")
}

// Without Redis the handler answers ping as PCP's pmproxy does and the
// rest with a JSON refusal where PCP's hangs.
func TestHTTPNoRedis(t *testing.T) {
	srv := httptest.NewServer(httpstd.Handler(Handler(nil)))
	defer srv.Close()
	cases := []struct {
		method, path, body string
		status             int
		want               string
	}{
		{"GET", "/series/ping", "", 200, "{\"success\":true}\r\n"},
		{"POST", "/series/ping", "x=1", 200, "{\"success\":true}\r\n"},
		{"GET", "/series/query?expr=a", "", 503, "{\"message\":\"no Redis servers configured for series\",\"success\":false}\r\n"},
		{"POST", "/series/values", "series=a", 503, "{\"message\":\"no Redis servers configured for series\",\"success\":false}\r\n"},
		{"GET", "/series/bogus", "", 400, "no handler for URL\n"},
	}
	for _, c := range cases {
		st, b := do(t, srv.URL, c.method, c.path, c.body)
		if st != c.status || b != c.want {
			t.Errorf("%s %s: %d %q, want %d %q", c.method, c.path, st, b, c.status, c.want)
		}
	}
}

// FuzzWindowOf: /series/values' window parameters from any query string
// give a window or an error, never a panic.
func FuzzWindowOf(f *testing.F) {
	for _, s := range []string{"samples=2", "start=-10m&finish=now", "interval=1s&count=3", "start=,", "delta=]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		p, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		windowOf(p)
	})
}

// TestHTTPWherePCPCrashes: queries on which libpcp_web 6.0.3 dies of a
// segmentation fault (PCP's pmseries on each; PCP's pmproxy on the first,
// seen asking it: the connection closes and every later request is
// refused) get an answer from ours, which serves on.
func TestHTTPWherePCPCrashes(t *testing.T) {
	srv := redistest.Start(t)
	seriestest.PCPLoad(t, srv.Port, seriestest.WriteConf(t), filepath.Join(qaArchives, "sample-labels"))
	ours := httptest.NewServer(httpstd.Handler(Handler(series.NewStore(client(t, srv)))))
	defer ours.Close()
	for _, c := range []struct {
		expr   string
		status int
		want   string
	}{
		{"rate(sample.colour[samples:2])", 400, `"message":"Can't rate convert 'sample.colour', counter semantics required\n"`},
		{"sample.colour[samples:2] + sample.rapid[samples:2]", 400, `"message":"Operands should have the same instance domain`},
		{"3 * nosuch.metric[samples:2]", 200, "[]"},
		{`sample.colour{"hostname"=="shard"}`, 200, `["`},
		{"max_sample(sample.colour[interval:1,start:0])", 200, `"value":"331"`},
		{"", 400, "failed to process URL"},
	} {
		st, b := do(t, ours.URL, "GET", "/series/query?expr="+url.QueryEscape(c.expr), "")
		if st != c.status || !strings.Contains(b, c.want) {
			t.Errorf("%q: %d %q, want %d and %q", c.expr, st, b, c.status, c.want)
		}
	}
	if st, b := do(t, ours.URL, "GET", "/series/ping", ""); st != 200 {
		t.Errorf("ping after: %d %q", st, b)
	}
}

// TestExprValuesWindow: /series/values of an expression's identifier
// evaluates it over the request's window: a count takes the most recent
// values and a start and finish bound them, as for any series. (PCP's
// pmproxy reads the expression's vectors from their first entry whatever
// the window, so its count takes the oldest values and its start and
// finish change nothing: docs/series.md.)
func TestExprValuesWindow(t *testing.T) {
	srv := redistest.Start(t)
	seriestest.PCPLoad(t, srv.Port, seriestest.WriteConf(t), filepath.Join(qaArchives, "sample-labels"))
	st := series.NewStore(client(t, srv))
	ours := httptest.NewServer(httpstd.Handler(Handler(st)))
	defer ours.Close()
	ctx := context.Background()
	res, err := st.Query(ctx, "max_sample(sample.colour)")
	if err != nil || len(res.Series) != 1 {
		t.Fatalf("query: %+v %v", res, err)
	}
	expr := res.Series[0]
	plain, err := st.Query(ctx, "max_sample(sample.colour[samples:2])")
	if err != nil || len(plain.Values) != 2 {
		t.Fatalf("windowed query: %+v %v", plain, err)
	}
	newest := plain.Values[0].StampText()
	if _, b := do(t, ours.URL, "GET", "/series/values?series="+expr+"&samples=1", ""); !strings.Contains(b, `"timestamp":`+newest+",") {
		t.Errorf("samples=1: %s, want the most recent value at %s", b, newest)
	}
	older := plain.Values[1]
	from := strconv.FormatFloat(older.Timestamp/1e3-0.2, 'f', 3, 64)
	to := strconv.FormatFloat(older.Timestamp/1e3+0.2, 'f', 3, 64)
	_, b := do(t, ours.URL, "GET", "/series/values?series="+expr+"&start="+from+"&finish="+to, "")
	if !strings.Contains(b, `"timestamp":`+older.StampText()+",") || strings.Contains(b, newest) {
		t.Errorf("start=%s finish=%s: %s, want the value at %s alone", from, to, b, older.StampText())
	}
}

const qaArchives = seriestest.QAArchives

// client is a connection pool to s, closed when the test ends.
func client(t testing.TB, s *redistest.Server) *resp.Pool {
	c := resp.NewPool(s.Addr(), resp.Options{Timeout: time.Minute})
	t.Cleanup(func() { c.Close() })
	return c
}
