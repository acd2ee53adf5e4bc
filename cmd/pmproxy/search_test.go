package main

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestSearchMounted: our pmproxy answers /search/* with Redis configured
// but not running (PCP 6.0.3's dies of a segmentation fault on these),
// and with a running Redis that has no search module, and goes on
// serving /series/ping after.
func TestSearchMounted(t *testing.T) {
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	// Nothing may listen there while the test runs ("Redis off"): the
	// port stays reserved to the end, or another test run could be
	// handed it and start a server there.
	t.Cleanup(release)
	srv := redistest.Start(t)
	for _, c := range []struct {
		what, servers, want string
	}{
		{"Redis off", "127.0.0.1:" + itoa(port), "no Redis servers configured for search"},
		{"Redis without RediSearch", srv.Addr(), "Redis has no search module"},
	} {
		addr := startOurs(t, "[pmproxy]\npcp.enabled = false\n[redis]\nenabled = true\nservers = "+c.servers+
			"\n[pmseries]\nenabled = true\n[discover]\nenabled = false\n")
		for _, p := range []string{"/search/text?query=kernel", "/search/suggest?query=k", "/search/indom?query=1", "/search/info", "/series/ping"} {
			resp, err := http.Get("http://" + addr + p)
			if err != nil {
				t.Fatalf("%s: GET %s: %v", c.what, p, err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			want, status := c.want, 503
			if p == "/series/ping" {
				want, status = `"success":true`, 200
			}
			if resp.StatusCode != status || !strings.Contains(string(b), want) {
				t.Errorf("%s: GET %s: %d %q, want %d and %q", c.what, p, resp.StatusCode, b, status, want)
			}
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
