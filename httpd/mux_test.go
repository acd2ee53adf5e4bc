package httpd

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// muxPatterns are pmproxy's: with "/" served, and without.
var muxPatterns = [][]string{
	{"/pmapi/", "/metrics", "/", "/series/", "/search/"},
	{"/pmapi/", "/metrics"},
}

// muxTargets are request targets around those patterns: exact, below,
// short of the slash, unclean, escaped.
var muxTargets = []string{
	"/", "/metrics", "/metrics/", "/metrics?names=a", "/metricsx", "/pmapi", "/pmapi/", "/pmapi/1/fetch?names=a",
	"/pmapi?x=1", "/series", "/series/query?expr=a", "/search/text", "/nosuch", "/index.html",
	"/pmapi/../etc/passwd", "//pmapi/context", "/pmapi/./context", "/a/b/../..", "/metric%73", "/pmapi%2Fcontext",
	"/%70mapi/context", "/pmapi/%2e%2e/x", "/pmapi/..", "/ü", "/pmapi/a//b", "/metrics/..", "*",
	"http://h/pmapi/context", "/pmapi/ctx?q=<a>&b=\"c\"",
}

// TestServeMux: every target, by each method, gets the answer
// net/http's ServeMux gives with the same patterns.
func TestServeMux(t *testing.T) {
	n := 0
	for _, pats := range muxPatterns {
		for _, target := range muxTargets {
			for _, method := range []string{"GET", "HEAD", "POST", "OPTIONS"} {
				if method != "OPTIONS" && target == "*" {
					continue
				}
				compareMux(t, pats, method, target)
				n++
			}
		}
	}
	compareMux(t, muxPatterns[0], "CONNECT", "host:1")
	t.Logf("%d requests compared", n+1)
}

func FuzzServeMux(f *testing.F) {
	for _, s := range muxTargets {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, target string) {
		compareMux(t, muxPatterns[0], "GET", target)
	})
}

// compareMux serves one request through both muxes; each pattern's
// handler answers with its pattern and the path it saw.
func compareMux(t *testing.T, pats []string, method, target string) {
	t.Helper()
	raw := method + " " + target + " HTTP/1.1\r\nHost: x\r\n\r\n"
	hr, r, ok := bothRequests(t, raw)
	if !ok {
		return
	}
	theirs, ours := http.NewServeMux(), NewServeMux()
	for _, p := range pats {
		theirs.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, p+" "+r.URL.Path)
		})
		ours.HandleFunc(p, func(w ResponseWriter, r *Request) {
			io.WriteString(w, p+" "+r.URL.Path)
		})
	}
	want := httptest.NewRecorder()
	theirs.ServeHTTP(want, hr)
	got := newRecorder()
	ours.ServeHTTP(got, r)
	if w, g := answerText(want.Code, want.Header(), want.Body.String()), answerText(got.status, got.h, got.body.String()); w != g {
		t.Errorf("%v %s %s:\n net/http %s\n ours     %s", pats, method, target, w, g)
	}
}
