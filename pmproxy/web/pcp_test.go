package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/gopcp/gopcp/httpd/httpstd"
	"github.com/gopcp/gopcp/internal/testing/proxybed"
)

// TestBrowserPCPProxy serves the page with /pmapi/* forwarded to PCP's
// own pmproxy, unchanged: the page must draw from PCP's answers as from
// ours (it uses nothing PCP's pmproxy lacks), timestamps with their
// nanoseconds' leading zeros dropped included.
//
// PCP 6.0.3's pmproxy now and then dies of a segmentation fault under
// the page's requests, whichever they are: its libpcp_web restarts a
// context's libuv timer from a worker thread on every /pmapi request,
// racing the event loop (proxybed.TimerRace; docs/pmproxy.md). A real
// browser's requests race it as much, so the page is not changed for
// it: a reference that died under the page is logged, with how and in
// which requests, and started again once; only a second death fails.
func TestBrowserPCPProxy(t *testing.T) {
	bin := needChromium(t)
	v := startView(t)
	q := url.Values{"host": {v.bed.Host()}, "metric": {"kernel.all.load,kernel.all.cpu.user"}, "search": {"kernel.all.l"}}
	for try := 1; ; try++ {
		pcp := proxybed.Start(t, v.bed)
		dom, why := loadOnPCP(t, bin, pcp, q)
		if why == "" {
			return
		}
		ended := pcp.EndedWithin(time.Second)
		switch {
		case ended == "":
			t.Fatalf("%s\nDOM:\n%s", why, dom)
		case try == 1:
			t.Logf("PCP's pmproxy ended under the page (%s): starting another and loading again", ended)
		default:
			t.Fatalf("PCP's pmproxy ended under the page again: %s\nthe page: %s\nDOM:\n%s", ended, why, dom)
		}
	}
}

// loadOnPCP loads the page, served with its /pmapi/* forwarded to pcp,
// until it has drawn both charts and found the search's metric, or pcp
// has ended; it returns the last DOM and what it lacked ("" when none).
func loadOnPCP(t *testing.T, bin string, pcp *proxybed.Proxy, q url.Values) (string, string) {
	mux := http.NewServeMux()
	mux.Handle("/", httpstd.Handler(Handler()))
	mux.Handle("/pmapi/", pcp.Forward())
	srv := httptest.NewServer(mux)
	defer srv.Close()
	return loadWhile(t, bin, srv.URL+"/?"+q.Encode(), pcp.Ended, func(dom string) string {
		if why := loadDrawn(dom, "kernel.all.load", []string{"1 minute", "5 minute", "15 minute"}, 2); why != "" {
			return why
		}
		if why := loadDrawn(dom, "kernel.all.cpu.user", []string{"value"}, 2); why != "" {
			return why
		}
		if res := results(dom); !contains(res, "kernel.all.load") {
			return "search found " + join(res)
		}
		if state, text := status(dom); state != "ok" {
			return "status " + state + ": " + text
		}
		return ""
	})
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return "[" + out + "]"
}
