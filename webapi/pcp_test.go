package webapi_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/httpd/httpstd"
	"github.com/gopcp/gopcp/internal/testing/proxybed"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/webapi"
)

// step is one request of a replay. CTX in the path becomes the context
// identifier the server gave the last context step ("save"), HS the
// hostspec parameter naming the bed's pmcd, NOWHERE a host and port
// nothing listens on (a private port reserved to the test's end).
type step struct {
	path string
	save bool
	body string // POSTed when not empty
}

// grafanaSteps are the calls grafana-pcp's vector data source makes
// (PmApiService.ts: context with polltimeout, metric by names, indom by
// name, fetch by names, store, derive named derived_<md5> and children by
// prefix), with the answers it matches on: an unknown name alone, a null
// instance domain, a store's failures, a duplicate, syntax and semantic
// errors in derive.
var grafanaSteps = []step{
	{"/pmapi/context?HS&polltimeout=30", true, ""},
	{"/pmapi/CTX/metric?names=sample.long.one,sample.bin,kernel.all.load", false, ""},
	{"/pmapi/CTX/metric?names=nosuch.metric", false, ""},
	{"/pmapi/CTX/metric?names=sample.long", false, ""},
	{"/pmapi/CTX/indom?name=sample.bin", false, ""},
	{"/pmapi/CTX/indom?name=sample.long.one", false, ""},
	{"/pmapi/CTX/indom?name=nosuch.metric", false, ""},
	{"/pmapi/CTX/fetch?names=pmcd.version", false, ""},
	{"/pmapi/CTX/fetch?names=sample.long.one,sample.bin,sample.string.hullo,sample.float.one,sample.double.one,sample.ulonglong.million,sample.longlong.one", false, ""},
	{"/pmapi/CTX/fetch?names=sample.long.one,nosuch.metric", false, ""},
	{"/pmapi/CTX/fetch?names=nosuch.metric", false, ""},
	{"/pmapi/CTX/store?name=sample.long.write_me&value=42", false, ""},
	{"/pmapi/CTX/fetch?names=sample.long.write_me", false, ""},
	{"/pmapi/CTX/store?name=nosuch.metric&value=1", false, ""},
	{"/pmapi/CTX/store?name=sample.long.write_me&value=abc", false, ""},
	{"/pmapi/CTX/store?name=sample.long.one&value=1", false, ""},
	{"/pmapi/CTX/derive?name=derived_0f1e2d&expr=sample.long.one*2", false, ""},
	{"/pmapi/CTX/derive?name=derived_0f1e2d&expr=sample.long.one*2", false, ""},
	{"/pmapi/CTX/derive?name=derived_bad&expr=sample.long.one*", false, ""},
	{"/pmapi/CTX/derive?name=derived_sem&expr=sample.long.one%2Bsample.string.hullo", false, ""},
	{"/pmapi/CTX/fetch?names=derived_0f1e2d", false, ""},
	{"/pmapi/CTX/metric?names=derived_0f1e2d", false, ""},
	{"/pmapi/CTX/children?prefix=sample", false, ""},
	{"/pmapi/CTX/children?prefix=sample.long", false, ""},
	{"/pmapi/CTX/children?prefix=", false, ""},
	{"/pmapi/CTX/children?prefix=nosuch", false, ""},
}

// moreSteps cover the rest of the API: requests without a context, the
// compatibility forms, PMIDs, instance filters, profiles, the client
// parameter, and errors.
//
// Its context asks for a long polltimeout: the default (5 s on both) is
// shorter than the time one server's context sits unused while the
// other answers the whole-namespace /pmapi/CTX/metric on a loaded
// machine (CI saw ours expire after PCP's took over 5 s), and the
// default is checked by TestDefaultPollTimeoutAgainstPCP.
var moreSteps = []step{
	{"/pmapi/context?HS&client=abc&polltimeout=3600", true, ""},
	{"/pmapi/_context?HS", false, ""},
	{"/pmapi/fetch?HS&names=sample.long.one,sample.bin", false, ""},
	{"/pmapi/metric?HS&prefix=sample.long", false, ""},
	{"/pmapi/indom?HS&indom=29.2&iname=bin-100,bin-200", false, ""},
	{"/pmapi/indom?HS&indom=29.2&instance=300,400", false, ""},
	{"/pmapi/indom?HS&indom=29.2&iname=bin-[12]*&match=glob", false, ""},
	{"/pmapi/indom?HS&indom=29.2&iname=bin-.00&match=regex", false, ""},
	{"/pmapi/indom?HS&indom=29.2&match=bogus", false, ""},
	{"/pmapi/CTX/indom?indom=bad", false, ""},
	{"/pmapi/CTX/indom?indom=29.1", false, ""},
	{"/pmapi/CTX/_fetch?names=sample.long.one,sample.bin", false, ""},
	{"/pmapi/CTX/_metric?names=sample.long.one,sample.bin", false, ""},
	{"/pmapi/CTX/_indom?name=sample.bin", false, ""},
	{"/pmapi/CTX/fetch?pmids=29.0.6,29.0.10", false, ""},
	{"/pmapi/CTX/fetch?pmid=29.0.10", false, ""},
	{"/pmapi/CTX/fetch?pmid=29.99.99", false, ""},
	{"/pmapi/CTX/fetch?name=nosuch.metric", false, ""},
	{"/pmapi/CTX/fetch?names=sample.long.one&client=x%22y", false, ""},
	{"/pmapi/CTX/profile?expr=del&name=sample.bin", false, ""},
	{"/pmapi/CTX/profile?expr=add&name=sample.bin&iname=bin-100,bin-300", false, ""},
	{"/pmapi/CTX/fetch?names=sample.bin", false, ""},
	{"/pmapi/CTX/profile?expr=add&indom=29.2", false, ""},
	{"/pmapi/CTX/fetch?names=sample.bin", false, ""},
	{"/pmapi/CTX/profile?expr=bogus&indom=29.2", false, ""},
	{"/pmapi/CTX/profile?expr=add&name=sample.long.one", false, ""},
	{"/pmapi/CTX/store?name=sample.long.write_me&value=13", false, ""},
	{"/pmapi/CTX/derive?expr=derived.a%20%3D%20sample.long.ten%2B1%0Aderived.b%20%3D%20sample.long.one%0A", false, ""},
	{"/pmapi/CTX/fetch?names=derived.a,derived.b", false, ""},
	{"/pmapi/CTX/derive?expr=derived.c%20%3D%20sample.long.ten", false, ""},
	{"/pmapi/CTX/derive", false, "derived.p = sample.long.hundred\n"},
	{"/pmapi/CTX/fetch?names=derived.p", false, ""},
	{"/pmapi/CTX/store?name=sample.long.write_me", false, "77"},
	{"/pmapi/CTX/fetch?names=sample.long.write_me", false, ""},
	{"/pmapi/CTX/store?name=sample.long.write_me&value=13", false, ""},
	{"/pmapi/99/fetch?names=sample.long.one", false, ""},
	{"/pmapi/CTX/fetch", false, ""},
	{"/pmapi/abc/fetch?names=sample.long.one", false, ""},
	{"/pmapi/fetch?context=xyz&names=sample.long.one", false, ""},
	{"/pmapi/CTX/context", false, ""},
	{"/pmapi/CTX/metric?names=sample.long.one,nosuch.one,sample.ulong", false, ""},
	{"/pmapi/CTX/metric", false, ""},
	{"/pmapi/context?hostspec=NOWHERE", false, ""},
	{"/pmapi/fetch?hostspec=NOWHERE&names=sample.long.one", false, ""},
	// host names no resolver knows (.invalid is reserved for that), and
	// an address that is none: libpcp's "No route to host"
	{"/pmapi/context?hostspec=no.such.host.invalid", false, ""},
	{"/pmapi/context?hostspec=no.such.host.invalid:44321&polltimeout=5", false, ""},
	{"/pmapi/context?hostspec=pcp://no.such.host.invalid", false, ""},
	{"/pmapi/context?hostspec=256.1.1.1", false, ""},
	{"/pmapi/fetch?hostspec=no.such.host.invalid&names=sample.long.one", false, ""},
	{"/pmapi/metric?hostspec=no.such.host.invalid&names=sample.long.one", false, ""},
	{"/pmapi/indom?hostspec=no.such.host.invalid&name=sample.bin", false, ""},
	{"/pmapi/children?hostspec=no.such.host.invalid&prefix=sample", false, ""},
	{"/pmapi/metrics?hostspec=no.such.host.invalid&names=sample.long.one", false, ""},
	{"/metrics?hostspec=no.such.host.invalid&names=sample.long.one", false, ""},
	// through a proxy: NOWHERE, not the default proxy port 44322, where
	// a pmproxy of the machine's own may listen and answer
	{"/pmapi/context?hostspec=nosuch.invalid@NOWHERE", false, ""},
	{"/pmapi/context?HS&polltimeout=abc", false, ""},
}

// masks hide what differs by nature between two servers: context
// identifiers and timestamps, and the help text of libpcp's anonymous
// derived metrics (event.*, domain 511), which is our derive package's.
var masks = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`"context":\d+`), `"context":N`},
	{regexp.MustCompile(`context identifier: \d+`), `context identifier: N`},
	{regexp.MustCompile(`"timestamp":\d+\.\d+`), `"timestamp":T`},
	{regexp.MustCompile(`"timestamp":\{"s":\d+,"us":\d+\}`), `"timestamp":T`},
	{regexp.MustCompile(`("pmid":"511\.\d+\.\d+","type":"[^"]*","sem":"[^"]*","units":"[^"]*","labels":\{[^}]*\},"text-oneline":)"[^"]*"(,"text-help":)"[^"]*"`), `$1"H"$2"H"`},
}

func mask(s string) string {
	for _, m := range masks {
		s = m.re.ReplaceAllString(s, m.with)
	}
	return s
}

// replayer runs steps against a server, keeping its context identifier.
type replayer struct {
	base    string
	hs      string
	nowhere string // host:port for NOWHERE
	ctxid   string
	client  *http.Client
	// reference marks PCP's pmproxy, whose answers are what ours are
	// compared with: on a loaded machine it now and then closes a new
	// connection without answering (no status line; seen
	// once in eight runs of TestAgainstPCP beside two other test runs).
	// No answer is no reference, so such a request is sent again on a
	// new connection, at most refAttempts times, and logged. Ours gets
	// no second chance.
	reference bool
	// died, for the reference, says how its process ended ("" while it
	// runs); dead is set when a request found it gone, and do then
	// answers nothing for the caller to start over on a new one.
	died func() string
	dead string
}

// refAttempts bounds the sends of one request to PCP's pmproxy.
const refAttempts = 3

var ctxRe = regexp.MustCompile(`^\{"context":(\d+)`)

func (r *replayer) do(t *testing.T, s step) (int, string) {
	t.Helper()
	path := strings.ReplaceAll(s.path, "HS", "hostspec="+r.hs)
	path = strings.ReplaceAll(path, "NOWHERE", r.nowhere)
	path = strings.ReplaceAll(path, "CTX", r.ctxid)
	var resp *http.Response
	var client *http.Client
	for attempt := 1; ; attempt++ {
		method, post := http.MethodGet, io.Reader(nil)
		if s.body != "" {
			method, post = http.MethodPost, strings.NewReader(s.body)
		}
		req, err := http.NewRequestWithContext(context.Background(), method, r.base+path, post)
		if err != nil {
			t.Fatal(err)
		}
		// A client of its own per request: a connection is never
		// reused, not even one the transport took back before PCP's
		// pmproxy sent its unsolicited second answer on it.
		client = newClient()
		// As long as the test may wait: at load 60, scraping the
		// sample agent's whole namespace (/metrics) took PCP's pmproxy
		// up to 35 s and ours (-race) up to 61 s, past a fixed 30 s.
		client.Timeout = testbed.WaitBound(t)
		resp, err = client.Do(req)
		if err == nil {
			break
		}
		// Closed unanswered: the transport says so as EOF, a reset (the
		// request's bytes still unread as it closed) or "server closed
		// idle connection" (closed before the request was written).
		// A timeout is not asked again: it has been waited for.
		if r.died != nil && r.waitDied() {
			return 0, ""
		}
		var ne net.Error
		timedOut := errors.As(err, &ne) && ne.Timeout()
		if !r.reference || timedOut || attempt >= refAttempts {
			t.Fatalf("%s: %v", path, err)
		}
		t.Logf("%s: PCP's pmproxy closed the connection unanswered (%v); sending it again", path, err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 64<<10)
	var readErr error
	for {
		n, err := resp.Body.Read(buf)
		b.WriteString(string(buf[:n]))
		if err != nil {
			if err != io.EOF {
				readErr = err
			}
			break
		}
	}
	if readErr != nil {
		// An answer cut short: PCP's pmproxy died while sending it
		// (seen at load 100), which is a death like the others, not an
		// answer to compare.
		if r.died != nil && r.waitDied() {
			return 0, ""
		}
		t.Fatalf("%s: the answer was cut short: %v", path, readErr)
	}
	body := b.String()
	client.CloseIdleConnections()
	if s.save {
		if m := ctxRe.FindStringSubmatch(body); m != nil {
			r.ctxid = m[1]
		} else {
			t.Fatalf("%s: no context in %q", path, body)
		}
	}
	return resp.StatusCode, body
}

// waitDied says whether the reference has died, noting how in r.dead. A
// process that dies closes its sockets before it is reaped: the reaping
// is given a moment (bounded) to show.
func (r *replayer) waitDied() bool {
	for range 50 {
		if how := r.died(); how != "" {
			r.dead = how
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// newClient makes a client whose connections serve one request each
// (closed by do): pmproxy 6.0.3 keeps a failed request's status on the
// connection and answers the next request on it with that error, or not
// at all, and it cuts a long answer short when the request asks it to
// close the connection ("Connection: close"), so the client neither
// reuses connections nor asks for that (docs/pmproxy.md).
func newClient() *http.Client {
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{}}
}

// TestAgainstPCP replays the request lists against PCP's pmproxy and ours
// over one pmcd, step by step (PCP's first, so that stores reach pmcd in
// the same order), and compares status and body after masking; once with
// PCP's pmcd behind both, once with gopcp's.
//
// PCP 6.0.3's pmproxy now and then dies of a segmentation fault part-way
// through the lists (seen at /pmapi/CTX/fetch?names=sample.bin, once in
// four runs on a quiet machine); ours answers the same requests. Its
// contexts die with it, so the lists are replayed from the start on a
// new pmproxy and a new server of ours, at most refAttempts times.
func TestAgainstPCP(t *testing.T) {
	for _, c := range []struct {
		name  string
		start func(testing.TB, testbed.Options) *testbed.PMCD
	}{{"PCP pmcd", testbed.StartPMCD}, {"gopcp pmcd", testbed.StartGoPMCD}} {
		t.Run(c.name, func(t *testing.T) {
			bed := c.start(t, testbed.Options{})
			for attempt := 1; ; attempt++ {
				px := proxybed.Start(t, bed)
				compared, dead := replayAgainst(t, px, bed.Host())
				if dead == "" {
					t.Logf("%d requests compared with PCP's pmproxy", compared)
					return
				}
				if attempt >= refAttempts {
					t.Fatalf("PCP's pmproxy died %d times (last: %s)", attempt, dead)
				}
				t.Logf("PCP's pmproxy died (%s) after %d requests; replaying the lists on a new one", dead, compared)
			}
		})
	}
}

// replayAgainst replays the request lists against px and a new server of
// ours, comparing each answer, until px dies (how it died is returned)
// or the lists end.
func replayAgainst(t *testing.T, px *proxybed.Proxy, hs string) (compared int, dead string) {
	t.Helper()
	nowhere := "localhost:" + strconv.Itoa(testbed.ReservedPort(t))
	srv := webapi.New(webapi.Options{})
	defer srv.Close()
	ours := httptest.NewServer(httpstd.Handler(srv))
	defer ours.Close()
	for _, list := range [][]step{grafanaSteps, moreSteps} {
		theirs := &replayer{base: px.URL(), hs: hs, nowhere: nowhere, client: newClient(), reference: true, died: px.Exited}
		mine := &replayer{base: ours.URL, hs: hs, nowhere: nowhere, client: newClient()}
		for _, s := range list {
			ts, tb := theirs.do(t, s)
			if theirs.dead != "" {
				return compared, theirs.dead
			}
			os, ob := mine.do(t, s)
			compared++
			if ts != os || mask(tb) != mask(ob) {
				t.Errorf("%s:\n%s", s.path, firstDiff(ts, mask(tb), os, mask(ob)))
			}
		}
	}
	return compared, ""
}

// firstDiff shows the two answers around where they first differ.
func firstDiff(ts int, tb string, os int, ob string) string {
	i := 0
	for i < len(tb) && i < len(ob) && tb[i] == ob[i] {
		i++
	}
	lo, hi := max(0, i-300), i+300
	return fmt.Sprintf("PCP  %d ...%s...\nours %d ...%s...", ts, tb[lo:min(hi, len(tb))], os, ob[lo:min(hi, len(ob))])
}
