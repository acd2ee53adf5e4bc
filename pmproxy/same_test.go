package pmproxy

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/httpd/httpstd"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmproxy/web"
	"github.com/gopcp/gopcp/webapi"
)

// sameSteps are requests of every kind pmproxy's handlers answer: the
// REST API's commands with and without a context, their errors, POSTed
// bodies, HEAD, OPTIONS and TRACE, /metrics, the web view's files and
// paths nobody serves. CTX becomes the context the first step made.
var sameSteps = []struct{ method, path, body string }{
	{"GET", "/pmapi/context?HS&polltimeout=60", ""},
	{"GET", "/pmapi/CTX/metric?names=sample.long.one,sample.bin,kernel.all.load", ""},
	{"GET", "/pmapi/CTX/metric?names=nosuch.metric", ""},
	{"GET", "/pmapi/CTX/metric?prefix=sample", ""},
	{"GET", "/pmapi/CTX/indom?name=sample.bin", ""},
	{"GET", "/pmapi/CTX/indom?name=sample.long.one", ""},
	{"GET", "/pmapi/CTX/fetch?names=sample.long.one,sample.bin", ""},
	{"GET", "/pmapi/CTX/fetch?names=nosuch.metric", ""},
	{"GET", "/pmapi/CTX/_fetch?names=sample.long.one", ""},
	{"GET", "/pmapi/CTX/children?prefix=sample", ""},
	{"GET", "/pmapi/CTX/profile?expr=add&indom=29.2&iname=bin-100", ""},
	{"POST", "/pmapi/CTX/derive?name=derived_x", "sample.long.one*2"},
	{"POST", "/pmapi/CTX/derive?name=derived_bad", "sample.long.one*"},
	{"GET", "/pmapi/CTX/fetch?names=derived_x", ""},
	{"POST", "/pmapi/CTX/store?name=sample.long.write_me", "42"},
	{"GET", "/pmapi/CTX/store?name=sample.long.write_me&value=abc", ""},
	{"GET", "/pmapi/fetch?HS&names=sample.long.one", ""},
	{"GET", "/pmapi/99999/fetch?names=sample.long.one", ""},
	{"GET", "/pmapi/abc/fetch?names=sample.long.one", ""},
	{"GET", "/pmapi/CTX/fetch", ""},
	{"GET", "/pmapi/nosuch", ""},
	{"GET", "/pmapi/CTX/fetch?names=%zz", ""},
	{"HEAD", "/pmapi/CTX/fetch?names=sample.long.one", ""},
	{"OPTIONS", "/pmapi/CTX/fetch?names=sample.long.one", ""},
	{"TRACE", "/pmapi/CTX/metric?names=sample.long.one", ""},
	{"GET", "/metrics?names=sample.long.one,sample.bin", ""},
	{"GET", "/metrics?names=sample.long", ""},
	{"GET", "/", ""},
	{"HEAD", "/", ""},
	{"GET", "/index.html", ""},
	{"GET", "/nosuch.js", ""},
	{"POST", "/", "x"},
	{"GET", "/pmapi/../etc/passwd", ""},
	{"GET", "/pmapi?x=1", ""},
	{"HEAD", "/pmapi", ""},
	{"GET", "/metrics/", ""},
	{"GET", "//pmapi/nosuch?x=1", ""},
	{"GET", "/pmapi/./nosuch", ""},
	{"GET", "/static/app.js", ""},
	{"GET", "/app.js/", ""},
}

// sameMasks hide what differs between two servers by nature: context
// numbers, timestamps, the Date header.
var sameMasks = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`"context":\d+`), `"context":N`},
	{regexp.MustCompile(`context identifier: \d+`), `context identifier: N`},
	{regexp.MustCompile(`"timestamp":\d+\.\d+`), `"timestamp":T`},
	{regexp.MustCompile(`"timestamp":\{"s":\d+,"us":\d+\}`), `"timestamp":T`},
	{regexp.MustCompile(`(?m)^(sample\.\S+ \S+) \d+$`), `$1 T`},
	{regexp.MustCompile(`(?m)^(sample_\S+ \S+) \d+$`), `$1 T`},
}

// TestSameAsNetHTTP serves pmproxy's handlers twice, through Serve (our
// server, NewMux's mux) and through net/http's server and ServeMux with
// the same patterns, in front of one pmcd, and checks every answer is
// the same: status, headers (but Date, the framing, which our
// buffer's size settles differently, and the headers PCP's head adds to
// every answer, pcpHead's) and body. The handlers' answers are
// compared with PCP's pmproxy in webapi's tests through net/http's
// server; this carries that over to ours.
func TestSameAsNetHTTP(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	newAPI := func() *webapi.Server {
		return webapi.New(webapi.Options{Open: func(ctx context.Context, spec string) (pmapi.Source, error) {
			return pmapi.NewContext(ctx, pmapi.KindHost, spec)
		}})
	}
	theirsAPI := newAPI()
	defer theirsAPI.Close()
	theirsH := http.NewServeMux()
	theirsH.Handle("/pmapi/", httpstd.Handler(theirsAPI))
	theirsH.Handle("/metrics", httpstd.Handler(theirsAPI))
	theirsH.Handle("/", httpstd.Handler(web.Handler()))
	theirs := httptest.NewServer(theirsH)
	defer theirs.Close()
	oursAPI := newAPI()
	defer oursAPI.Close()
	oursH := NewMux(oursAPI)
	oursH.Handle("/", web.Handler())
	ours := serve(t, Config{HTTP: oursH, MaxBodyBytes: 1 << 20})
	ask := func(addr string) []string {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(60 * time.Second))
		r := bufio.NewReader(c)
		ctx := ""
		var out []string
		for _, s := range sameSteps {
			path := strings.Replace(strings.Replace(s.path, "HS", "hostspec="+bed.Host(), 1), "CTX", ctx, 1)
			req := s.method + " " + path + " HTTP/1.1\r\nHost: x\r\n"
			if s.body != "" {
				req += "Content-Type: text/plain\r\nContent-Length: " + itoa(len(s.body)) + "\r\n"
			}
			io.WriteString(c, req+"\r\n"+s.body)
			resp, err := http.ReadResponse(r, &http.Request{Method: s.method})
			if err != nil {
				t.Fatalf("%s %s: %v", s.method, path, err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if ctx == "" {
				ctx = strings.TrimPrefix(strings.SplitN(string(b), ",", 2)[0], `{"context":`)
			}
			if s.method == "OPTIONS" || s.method == "TRACE" {
				// answered by their own heads alone, as PCP's
				// (pcpHead): the handler's status is what is kept
				out = append(out, resp.Status)
			} else {
				out = append(out, describe(resp, string(b)))
			}
			if resp.Close {
				t.Fatalf("%s %s: connection closed", s.method, path)
			}
		}
		return out
	}
	want, got := ask(strings.TrimPrefix(theirs.URL, "http://")), ask(ours)
	for i, s := range sameSteps {
		if want[i] != got[i] {
			t.Errorf("%s %s:\nnet/http: %s\nours:     %s", s.method, s.path, want[i], got[i])
		}
	}
	t.Logf("%d answers compared", len(sameSteps))
}

// describe is an answer as compared: status, sorted headers, body.
func describe(resp *http.Response, body string) string {
	var hs []string
	for k, v := range resp.Header {
		switch k {
		case "Date", "Content-Length":
			// Content-Length: context numbers differ in length between
			// the servers; http.ReadResponse checked it against the body
			continue
		case "Connection", "Access-Control-Allow-Origin", "Access-Control-Allow-Headers", "Access-Control-Max-Age", "Access-Control-Allow-Methods":
			// pcpHead's, on every answer (TestHeadLikePCP)
			continue
		}
		hs = append(hs, k+": "+strings.Join(v, ", "))
	}
	slices.Sort(hs)
	for _, m := range sameMasks {
		body = m.re.ReplaceAllString(body, m.with)
	}
	return resp.Status + " | " + strings.Join(hs, " | ") + " | " + body
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}
