package webapi_test

import (
	"net/http/httptest"
	"regexp"
	"testing"
	"time"

	"github.com/gopcp/gopcp/httpd/httpstd"
	"github.com/gopcp/gopcp/internal/testing/proxybed"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/webapi"
)

var goneRe = regexp.MustCompile(`^\{"context":\d+,"message":"(expired|unknown) context identifier: \d+","success":false\}\r\n$`)

// TestExpiryAgainstPCP makes a context with polltimeout=1 on PCP's
// pmproxy and ours, leaves both unused past that second, and checks that
// both then answer 400 with "expired" or "unknown context identifier"
// (which one depends on whether the sweep has run), and that both come
// to "unknown" once swept. Nothing asserts how long either takes.
func TestExpiryAgainstPCP(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	px := proxybed.Start(t, bed)
	srv := webapi.New(webapi.Options{Sweep: 200 * time.Millisecond})
	defer srv.Close()
	ours := httptest.NewServer(httpstd.Handler(srv))
	defer ours.Close()
	servers := []*replayer{
		{base: px.URL(), hs: bed.Host(), client: newClient(), reference: true},
		{base: ours.URL, hs: bed.Host(), client: newClient()},
	}
	for _, r := range servers {
		r.do(t, step{"/pmapi/context?HS&polltimeout=1", true, ""})
	}
	time.Sleep(1500 * time.Millisecond)
	for _, r := range servers {
		seen := map[string]bool{}
		for tries := 0; tries < 30 && !seen["unknown"]; tries++ {
			code, body := r.do(t, step{"/pmapi/CTX/fetch?names=sample.long.one", false, ""})
			m := goneRe.FindStringSubmatch(body)
			if code != 400 || m == nil {
				t.Fatalf("%s: %d %q", r.base, code, body)
			}
			seen[m[1]] = true
			if !seen["unknown"] {
				time.Sleep(time.Second)
			}
		}
		if !seen["unknown"] {
			t.Errorf("%s: the expired context was never forgotten", r.base)
		}
		t.Logf("%s: %v", r.base, seen)
	}
}
