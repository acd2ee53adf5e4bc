package webapi_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopcp/gopcp/httpd/httpstd"
	"github.com/gopcp/gopcp/internal/testing/proxybed"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/webapi"
)

// TestWherePCPCrashes sends ours the two request sequences on which PCP
// 6.0.3's pmproxy dies of a segmentation fault (proxybed.TimerRace):
// requests on one context from four clients at once, as a page or a
// dashboard makes them (in one run each, PCP's died after about 1,000
// with four clients and 11,000 with two; one client at a time made
// 374,000 unharmed), and contexts made one after another with
// polltimeout=0.5 while another client fetches on a context it keeps
// (PCP's died at context 304 to 6,835 in seven runs).
// Ours must answer every request (a refusal at its context bounds is an
// answer) and go on answering after. With GOPCP_PCP_CRASHES=1 the same
// sequences, longer, go to PCP's pmproxy too and how far it got is
// logged: whether a race strikes is not asserted.
func TestWherePCPCrashes(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	srv := webapi.New(webapi.Options{Sweep: 200 * time.Millisecond})
	defer srv.Close()
	ours := httptest.NewServer(httpstd.Handler(srv))
	defer ours.Close()
	if why := raceSequences(ours.URL, bed.Host(), 500, 1500, testbed.WaitBound(t)); why != "" {
		t.Fatal(why)
	}
	r := &replayer{base: ours.URL, hs: bed.Host(), client: newClient()}
	r.do(t, step{"/pmapi/context?HS", true, ""})
	if code, body := r.do(t, step{"/pmapi/CTX/fetch?names=sample.long.one", false, ""}); code != 200 {
		t.Errorf("after the sequences: %d %q", code, body)
	}
	if os.Getenv("GOPCP_PCP_CRASHES") != "1" {
		return
	}
	px := proxybed.Start(t, bed)
	why := raceSequences(px.URL(), bed.Host(), 5000, 10000, testbed.WaitBound(t))
	if ended := px.EndedWithin(time.Second); ended != "" {
		t.Logf("PCP's pmproxy died: %s\n%s", why, ended)
	} else {
		t.Logf("PCP's pmproxy lived through the sequences (%q)", why)
	}
}

// raceSequences runs the two sequences against base, perClient requests
// from each of four clients on one context, then contexts made one at a
// time beside a fetching client, and says what first went unanswered
// ("" when nothing did). A request waits at most wait: as long as the
// test may (testbed.WaitBound), since a fixed 30 s is passed at load.
func raceSequences(base, hs string, perClient, contexts int, wait time.Duration) string {
	c := &http.Client{Timeout: wait, Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	// get returns the body of a 200 ("" for a refusal at a context
	// bound, 429 or 503), or why there was none.
	get := func(path string) (string, string) {
		resp, err := c.Get(base + path)
		if err != nil {
			return "", fmt.Sprintf("%s: %v", path, err)
		}
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		switch resp.StatusCode {
		case 200:
			return string(b), ""
		case 429, 503:
			return "", ""
		}
		return "", fmt.Sprintf("%s: %d %q", path, resp.StatusCode, b)
	}
	kept := func() (string, string) {
		body, why := get("/pmapi/context?hostspec=" + hs + "&polltimeout=60")
		if m := ctxRe.FindStringSubmatch(body); why == "" && m != nil {
			return m[1], ""
		}
		return "", fmt.Sprintf("no context: %s %q", why, body)
	}
	var first atomic.Pointer[string]
	fail := func(why string) { first.CompareAndSwap(nil, &why) }
	failed := func() bool { return first.Load() != nil }
	ctx, why := kept()
	if why != "" {
		return why
	}
	paths := []string{"fetch?names=sample.long.one,sample.bin", "metric?names=sample.bin", "indom?name=sample.bin", "children?prefix=sample", "fetch?names=sample.seconds"}
	var wg sync.WaitGroup
	for k := range 4 {
		wg.Go(func() {
			for i := 0; i < perClient && !failed(); i++ {
				if _, why := get("/pmapi/" + ctx + "/" + paths[(k+i)%len(paths)]); why != "" {
					fail(fmt.Sprintf("request %d of client %d on one context: %s", i+1, k+1, why))
				}
			}
		})
	}
	wg.Wait()
	if p := first.Load(); p != nil {
		return *p
	}
	if ctx, why = kept(); why != "" {
		return why
	}
	done := make(chan struct{})
	var made atomic.Int64 // contexts the churn has made
	wg.Go(func() {
		for !failed() {
			select {
			case <-done:
				return
			default:
			}
			if _, why := get("/pmapi/" + ctx + "/fetch?names=sample.long.one"); why != "" {
				fail(fmt.Sprintf("the fetch beside the churn, after context %d: %s", made.Load(), why))
			}
		}
	})
	for i := 0; i < contexts && !failed(); i++ {
		if body, why := get("/pmapi/context?hostspec=" + hs + "&polltimeout=0.5"); why != "" {
			fail(fmt.Sprintf("context %d of the churn: %s", i+1, why))
		} else if body != "" && !strings.HasPrefix(body, `{"context":`) {
			fail(fmt.Sprintf("context %d of the churn: %q", i+1, body))
		}
		made.Store(int64(i + 1))
	}
	close(done)
	wg.Wait()
	if p := first.Load(); p != nil {
		return *p
	}
	return ""
}
