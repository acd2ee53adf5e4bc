package restapi

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/httpd/httpstd"
	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/series"
)

// TestSearchRefusalsMatchPCP: the /search requests PCP's pmproxy refuses
// before asking Redis get PCP's pages from ours.
func TestSearchRefusalsMatchPCP(t *testing.T) {
	srv := redistest.Start(t)
	pcpBase := startPCPProxy(t, srv.Port)
	ours := httptest.NewServer(httpstd.Handler(SearchHandler(series.NewStore(client(t, srv)))))
	defer ours.Close()
	reqs := []struct{ method, path, body string }{
		{"GET", "/search/text", ""},
		{"GET", "/search/text?limit=2", ""},
		{"GET", "/search/suggest", ""},
		{"GET", "/search/indom?clientid=5", ""},
		{"GET", "/search/textual", ""},
		{"GET", "/search/bogus", ""},
		{"GET", "/search/", ""},
		{"POST", "/search/suggest", "limit=3"},
	}
	for _, r := range reqs {
		ps, pb := do(t, pcpBase, r.method, r.path, r.body)
		os, ob := do(t, ours.URL, r.method, r.path, r.body)
		if ps != os || pb != ob {
			t.Errorf("%s %s %s:\n PCP  %d %q\n ours %d %q", r.method, r.path, r.body, ps, pb, os, ob)
		}
	}
	t.Logf("%d refused /search requests equal to PCP's pmproxy's in status and body", len(reqs))
}

// TestSearchWithoutRediSearch: every well-formed /search request, on
// which PCP 6.0.3's pmproxy dies of a segmentation fault when Redis has
// no search module (Debian's has none) or is down, gets a JSON refusal
// saying why, with Redis unconfigured, up without the module, and
// stopped; the handler goes on answering after each.
func TestSearchWithoutRediSearch(t *testing.T) {
	srv := redistest.Start(t)
	none := httptest.NewServer(httpstd.Handler(SearchHandler(nil)))
	defer none.Close()
	up := httptest.NewServer(httpstd.Handler(SearchHandler(series.NewStore(client(t, srv)))))
	defer up.Close()
	paths := []string{"/search/text?query=kernel", "/search/suggest?query=ker&limit=2",
		"/search/indom?query=60.1&clientid=abc", "/search/info", "/search/information?x=1"}
	check := func(base, what string, status int, want string) {
		t.Helper()
		for _, p := range paths {
			st, b := do(t, base, "GET", p, "")
			if st != status || !strings.Contains(b, want) || !strings.Contains(b, `"success":false`) {
				t.Errorf("%s: GET %s: %d %q, want %d and %q", what, p, st, b, status, want)
			}
			if strings.Contains(p, "clientid=abc") && !strings.HasPrefix(b, `{"client":"abc",`) {
				t.Errorf("%s: GET %s: %q without the client", what, p, b)
			}
		}
	}
	check(none.URL, "no Redis", 503, "no Redis servers configured for search")
	check(up.URL, "Redis without RediSearch", 503, "Redis has no search module (RediSearch)")
	srv.Stop()
	check(up.URL, "Redis stopped", 503, "Redis")
	if st, _ := do(t, up.URL, "GET", "/search/text", ""); st != 400 {
		t.Errorf("after the failures: /search/text without a query %d, want 400", st)
	}
}
