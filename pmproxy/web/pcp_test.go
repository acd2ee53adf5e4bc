package web

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"testing"

	"github.com/gopcp/gopcp/httpd/httpstd"
	"github.com/gopcp/gopcp/internal/testing/proxybed"
)

// TestBrowserPCPProxy serves the page with /pmapi/* forwarded to PCP's
// own pmproxy, unchanged: the page must draw from PCP's answers as from
// ours (it uses nothing PCP's pmproxy lacks), timestamps with their
// nanoseconds' leading zeros dropped included.
func TestBrowserPCPProxy(t *testing.T) {
	bin := needChromium(t)
	v := startView(t)
	pcp := proxybed.Start(t, v.bed)
	target, err := url.Parse(pcp.URL())
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", httpstd.Handler(Handler()))
	rp := httputil.NewSingleHostReverseProxy(target)
	mux.Handle("/pmapi/", rp)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	q := url.Values{"host": {v.bed.Host()}, "metric": {"kernel.all.load,kernel.all.cpu.user"}, "search": {"kernel.all.l"}}
	page := srv.URL + "/?" + q.Encode()
	dom, why := load(t, bin, page, func(dom string) string {
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
	if why != "" {
		t.Fatalf("%s\nDOM:\n%s", why, dom)
	}
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
