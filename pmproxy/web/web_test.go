package web

import (
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/httpd/httpstd"
)

// TestHandler serves the page's files and nothing else.
func TestHandler(t *testing.T) {
	srv := httptest.NewServer(httpstd.Handler(Handler()))
	defer srv.Close()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(method, path string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, string(body)
	}

	_, index := get("GET", "/")
	var files []string
	for _, m := range regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(index, -1) {
		files = append(files, m[1])
	}
	if len(files) < 5 {
		t.Fatalf("index.html names %v", files)
	}
	for _, f := range files {
		resp, body := get("GET", "/"+f)
		if resp.StatusCode != 200 || body == "" {
			t.Errorf("%s (named by index.html): %d, %d bytes", f, resp.StatusCode, len(body))
		}
	}

	for _, c := range []struct {
		method, path string
		status       int
		ctype        string
		has          string
	}{
		{"GET", "/", 200, "text/html; charset=utf-8", `<script src="app.js">`},
		{"HEAD", "/", 200, "text/html; charset=utf-8", ""},
		{"GET", "/app.js", 200, "text/javascript; charset=utf-8", "pcpview"},
		{"GET", "/rate.js", 200, "text/javascript; charset=utf-8", "rateStep"},
		{"GET", "/style.css", 200, "text/css; charset=utf-8", ".chart"},
		{"GET", "/index.html", 301, "", ""},
		{"GET", "/nosuch", 404, "text/plain; charset=utf-8", "404 page not found"},
		{"GET", "/static/app.js", 404, "text/plain; charset=utf-8", ""},
		{"GET", "/../web.go", 404, "text/plain; charset=utf-8", ""},
		{"POST", "/", 405, "text/plain; charset=utf-8", "method not allowed"},
	} {
		resp, body := get(c.method, c.path)
		if resp.StatusCode != c.status {
			t.Errorf("%s %s: status %d, want %d", c.method, c.path, resp.StatusCode, c.status)
		}
		if got := resp.Header.Get("Content-Type"); c.ctype != "" && got != c.ctype {
			t.Errorf("%s %s: Content-Type %q, want %q", c.method, c.path, got, c.ctype)
		}
		if !strings.Contains(body, c.has) {
			t.Errorf("%s %s: body lacks %q", c.method, c.path, c.has)
		}
		if csp := resp.Header.Get("Content-Security-Policy"); resp.StatusCode < 400 && csp != "default-src 'self'" {
			t.Errorf("%s %s: Content-Security-Policy %q", c.method, c.path, csp)
		}
	}
}

// TestContentTypesAsMime: every file of the page gets the type the mime
// package (which the file server would ask) gives its name, from the
// handler's own table.
func TestContentTypesAsMime(t *testing.T) {
	entries, err := static.ReadDir("static")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		got, ok := contentType("/" + e.Name())
		want := mime.TypeByExtension(path.Ext(e.Name()))
		if !ok || got != want {
			t.Errorf("%s: type %q (%v), the mime package's %q", e.Name(), got, ok, want)
		}
	}
	if got, _ := contentType("/"); got != mime.TypeByExtension(".html") {
		t.Errorf("/: type %q", got)
	}
}
