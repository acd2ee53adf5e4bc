package restapi

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/httpd/httpstd"
	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/internal/testing/seriestest"
	"github.com/gopcp/gopcp/series"
)

// TestHTTPLoadMatchesPCP asks PCP's pmproxy and ours /series/load over
// one Redis: refusals (no expression, an empty one, a POST without one,
// syntax errors, no context, archives that cannot be opened, with and
// without a client identifier) alike in status and body. Then a load of
// a QA archive: PCP 6.0.3's pmproxy fails every one (it opens the
// archive in a worker thread, where its context is current, and reads
// it in the main thread, where it is not: "pmSetModeHighRes failed:
// Attempt to use an illegal context"), which the test checks is still
// so; ours loads it, and Redis then holds what PCP's pmseries --load of
// the same archive writes, key for key but for the loader's departures.
func TestHTTPLoadMatchesPCP(t *testing.T) {
	srv := redistest.Start(t)
	ours := httptest.NewServer(httpstd.Handler(Handler(series.NewStore(client(t, srv)))))
	defer ours.Close()
	archivePath := filepath.Join(qaArchives, "sample-labels")
	expr := func(e string) string { return url.QueryEscape(e) }
	dir := t.TempDir()
	reqs := []struct{ method, path, body string }{
		{"GET", "/series/load", ""},
		{"GET", "/series/load?expr=", ""},
		{"GET", "/series/load?client=abc", ""},
		{"POST", "/series/load", ""},
		{"POST", "/series/load", "client=abc"},
		{"GET", "/series/load?expr=" + expr("sample.colour"), ""},
		{"GET", "/series/load?client=abc&expr=" + expr("sample.colour"), ""},
		{"GET", "/series/load?expr=" + expr("nonsense{"), ""},
		{"GET", "/series/load?expr=" + expr(archivePath), ""},
		{"GET", "/series/load?expr=" + expr(`{source.path:"/nonexistent"}`), ""},
		{"GET", "/series/load?expr=" + expr(`{source.path=="/nonexistent"}`), ""},
		{"GET", "/series/load?expr=" + expr(`a{source.path:"/nonexistent",metric.name:"x"}`), ""},
		{"GET", "/series/load?expr=" + expr(`{c.path:"/etc/passwd"}`), ""},
		{"GET", "/series/load?expr=" + expr(`{source.path:""}`), ""},
		{"GET", "/series/load?expr=" + expr(`{source.path:"`+dir+`"}`), ""},
		{"GET", "/series/load?expr=" + expr(`{source.name:"`+archivePath+`"}`), ""},
		{"POST", "/series/load", "client=abc&expr=" + expr(`{source.path:"/nonexistent"}`)},
		{"GET", "/series/loadXYZ?expr=" + expr(`{source.archive:"/nonexistent"}`), ""},
	}
	// PCP's pmproxy is started afresh for each request: a load it
	// refuses leaves it damaged (the refusal's baton is freed twice),
	// and a later request, or that one, ends it
	equal, crashed := 0, 0
	for _, r := range reqs {
		pcpBase, stop := startPCPProxyStop(t, srv.Port)
		ps, pb := do(t, pcpBase, r.method, r.path, r.body)
		stop()
		os, ob := do(t, ours.URL, r.method, r.path, r.body)
		if ps == 0 && os == http.StatusBadRequest && strings.Contains(ob, `"success":false`) {
			crashed++
			t.Logf("%s %s %s: PCP's pmproxy died (%s); ours: %d %q", r.method, r.path, r.body, pb, os, ob)
			continue
		}
		if ps != os || pb != ob {
			t.Errorf("%s %s %s:\n PCP  %d %q\n ours %d %q", r.method, r.path, r.body, ps, pb, os, ob)
			continue
		}
		equal++
	}
	t.Logf("%d of %d /series/load refusals equal to PCP's pmproxy's in status and body; on %d PCP's died", equal, len(reqs), crashed)

	load := "/series/load?expr=" + expr(`{source.path:"`+archivePath+`"}`)
	pcpBase := startPCPProxy(t, srv.Port)
	if st, b := do(t, pcpBase, "GET", load, ""); st != http.StatusBadRequest || !strings.Contains(b, "pmSetModeHighRes failed: Attempt to use an illegal context") {
		t.Errorf("PCP's pmproxy loaded the archive (%d %q): compare its keys now", st, b)
	}
	mine, pcps := redistest.Start(t), redistest.Start(t)
	loader := httptest.NewServer(httpstd.Handler(Handler(series.NewStore(client(t, mine)))))
	defer loader.Close()
	if st, b := do(t, loader.URL, "GET", load+"&client=7", ""); st != http.StatusOK || b != "{\"client\":\"7\",\"success\":true}\r\n" {
		t.Fatalf("our load: %d %q", st, b)
	}
	seriestest.PCPLoad(t, pcps.Port, seriestest.WriteConf(t), archivePath)
	same, dep := seriestest.CompareDumps(t, "sample-labels", seriestest.Dump(t, client(t, pcps)), seriestest.Dump(t, client(t, mine)))
	t.Logf("loaded over HTTP: %d keys equal to PCP's pmseries --load's (departures: %d more set members, %d stale values)",
		same, dep.MoreMembers, dep.StaleValues)
}

// TestHTTPLoadOneAtATime: a load asked while another runs is refused
// with PCP's 409, and a load expression PCP's pmproxy dies on (a window
// alone) is refused.
func TestHTTPLoadOneAtATime(t *testing.T) {
	srv := redistest.Start(t)
	h := NewHandler(series.NewStore(client(t, srv)), HandlerOptions{}).(*handler)
	ours := httptest.NewServer(httpstd.Handler(h))
	defer ours.Close()
	h.loading <- struct{}{} // a load under way
	load := "/series/load?expr=" + url.QueryEscape(`{source.path:"`+filepath.Join(qaArchives, "sample-labels")+`"}`)
	if st, b := do(t, ours.URL, "GET", load, ""); st != http.StatusConflict || b != "{\"success\":false,\"message\":\"load in-progress\"}\r\n" {
		t.Errorf("second load: %d %q", st, b)
	}
	<-h.loading
	if st, b := do(t, ours.URL, "GET", "/series/load?expr="+url.QueryEscape("[samples:1]"), ""); st != http.StatusBadRequest ||
		b != "{\"message\":\"Invalid series query specification\",\"success\":false}\r\n" {
		t.Errorf("a window alone: %d %q", st, b)
	}
	if st, b := do(t, ours.URL, "GET", load, ""); st != http.StatusOK || b != "{\"success\":true}\r\n" {
		t.Errorf("load after the first ended: %d %q", st, b)
	}
}

// TestHTTPLoadOutlastsWriteTimeout: a server whose write deadline has
// passed before any answer is written (a nanosecond) still delivers a
// load's answer, which comes when the load is done.
func TestHTTPLoadOutlastsWriteTimeout(t *testing.T) {
	srv := redistest.Start(t)
	s := httptest.NewUnstartedServer(httpstd.Handler(Handler(series.NewStore(client(t, srv)))))
	s.Config.WriteTimeout = time.Nanosecond
	s.Start()
	defer s.Close()
	load := "/series/load?expr=" + url.QueryEscape(`{source.path:"`+filepath.Join(qaArchives, "sample-labels")+`"}`)
	if st, b := do(t, s.URL, "GET", load, ""); st != http.StatusOK || b != "{\"success\":true}\r\n" {
		t.Errorf("load behind a passed write deadline: %d %q", st, b)
	}
}
