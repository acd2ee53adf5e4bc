package webapi_test

import (
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/httpd/httpstd"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/webapi"
)

// TestContextLimits fills the limits: the context past MaxClientContexts
// from one client is 429, and the server keeps no more than that.
func TestContextLimits(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	srv := webapi.New(webapi.Options{MaxContexts: 10, MaxClientContexts: 3, PollTimeout: time.Hour})
	defer srv.Close()
	ts := httptest.NewServer(httpstd.Handler(srv))
	defer ts.Close()
	r := &replayer{base: ts.URL, hs: bed.Host(), client: newClient()}
	for i := 0; i < 3; i++ {
		if code, body := r.do(t, step{"/pmapi/context?HS", false, ""}); code != 200 {
			t.Fatalf("context %d: %d %s", i, code, body)
		}
	}
	code, body := r.do(t, step{"/pmapi/context?HS", false, ""})
	if code != 429 || !strings.Contains(body, "too many web contexts") {
		t.Errorf("fourth context: %d %s", code, body)
	}
	if n := srv.Contexts(); n != 3 {
		t.Errorf("%d contexts kept, want 3", n)
	}
}

// TestChurnBounded makes 10,000 contexts that expire at once (requests
// without a context, as a scraper or a dashboard without its context
// makes them) and checks that what the server keeps stays bounded: the
// live contexts never exceed the limit and the heap after the last is
// within a few MiB of the heap after the first thousand. No time is
// asserted.
func TestChurnBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 pmcd connections")
	}
	bed := testbed.StartPMCD(t, testbed.Options{})
	const limit = 256
	srv := webapi.New(webapi.Options{MaxContexts: limit, MaxClientContexts: limit, Sweep: 20 * time.Millisecond})
	defer srv.Close()
	ts := httptest.NewServer(httpstd.Handler(srv))
	defer ts.Close()
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	var mu sync.Mutex
	refused, maxLive := 0, 0
	churn := func(n int) {
		var wg sync.WaitGroup
		work := make(chan int)
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := &replayer{base: ts.URL, hs: bed.Host(), client: newClient()}
				for range work {
					code, body := r.do(t, step{"/pmapi/fetch?HS&polltimeout=0&names=sample.long.one,sample.bin", false, ""})
					mu.Lock()
					if live := srv.Contexts(); live > maxLive {
						maxLive = live
					}
					if code == 503 || code == 429 {
						refused++
					} else if code != 200 {
						t.Errorf("fetch: %d %s", code, body)
					}
					mu.Unlock()
				}
			}()
		}
		for i := 0; i < n; i++ {
			work <- i
		}
		close(work)
		wg.Wait()
	}
	churn(1000)
	base := heap()
	churn(9000)
	for srv.Contexts() > 0 {
		time.Sleep(50 * time.Millisecond) // the sweep takes the last
	}
	after := heap()
	t.Logf("heap in use after 1,000 contexts %d KiB, after 10,000 %d KiB; at most %d live; %d refused at the limit",
		base>>10, after>>10, maxLive, refused)
	if maxLive > limit {
		t.Errorf("%d contexts live at once, limit %d", maxLive, limit)
	}
	if after > base+4<<20 {
		t.Errorf("heap grew from %d to %d bytes over 9,000 more contexts", base, after)
	}
}
