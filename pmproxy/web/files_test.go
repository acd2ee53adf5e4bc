package web

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/httpd/httpstd"
)

// netHTTPHandler is Handler as it was on net/http's file server, the
// reference for serveFile.
func netHTTPHandler() http.Handler {
	files := http.FileServerFS(static)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-cache")
		if t, ok := contentType(r.URL.Path); ok {
			h.Set("Content-Type", t)
		}
		r2 := new(http.Request)
		*r2 = *r
		u := *r.URL
		u.Path = "/static" + r.URL.Path
		u.RawPath = ""
		r2.URL = &u
		files.ServeHTTP(w, r2)
	})
}

// TestSameAsFileServer: every path and method gets net/http's file
// server's answer (but Accept-Ranges, which ours does not send since it
// serves no ranges).
func TestSameAsFileServer(t *testing.T) {
	ours, theirs := httpstd.Handler(Handler()), netHTTPHandler()
	entries, err := static.ReadDir("static")
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"/", "/?x=1", "/index.html", "/index.html?x=1", "/static", "/static/", "/static/app.js",
		"/nosuch", "/nosuch/", "/a/b", "/app.js/", "/app.js/?q", "/style.css/x", "/../web.go", "/./app.js", "//app.js", "",
		"/..", "/../", "/../?q", "/./"}
	for _, e := range entries {
		paths = append(paths, "/"+e.Name(), "/"+e.Name()+"/")
	}
	n := 0
	for _, p := range paths {
		for _, m := range []string{"GET", "HEAD", "POST", "PUT"} {
			compareFiles(t, ours, theirs, m, p)
			n++
		}
	}
	t.Logf("%d requests compared", n)
}

func FuzzSameAsFileServer(f *testing.F) {
	for _, p := range []string{"/", "/app.js", "/index.html?x", "/app.js/", "/../x", "/static", ""} {
		f.Add(p)
	}
	ours, theirs := httpstd.Handler(Handler()), netHTTPHandler()
	f.Fuzz(func(t *testing.T, p string) {
		compareFiles(t, ours, theirs, "GET", p)
	})
}

// compareFiles asks both handlers for path p (with its query after '?').
func compareFiles(t *testing.T, ours, theirs http.Handler, method, p string) {
	t.Helper()
	req := httptest.NewRequest(method, "http://x/", nil)
	req.URL.Path, req.URL.RawQuery, _ = strings.Cut(p, "?")
	want, got := httptest.NewRecorder(), httptest.NewRecorder()
	theirs.ServeHTTP(want, req)
	ours.ServeHTTP(got, req)
	want.Header().Del("Accept-Ranges")
	if w, g := recorded(want), recorded(got); w != g {
		t.Errorf("%s %q:\n net/http %s\n ours     %s", method, p, w, g)
	}
}

// recorded is an answer as compared: status, sorted headers, body.
func recorded(r *httptest.ResponseRecorder) string {
	var hs []string
	for k, v := range r.Header() {
		hs = append(hs, k+": "+strings.Join(v, ", "))
	}
	slices.Sort(hs)
	b := r.Body.String()
	if len(b) > 64 {
		b = b[:64] + "..."
	}
	return http.StatusText(r.Code) + " | " + strings.Join(hs, " | ") + " | " + b
}
