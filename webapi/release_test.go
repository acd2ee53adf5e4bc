package webapi_test

import (
	"context"
	"net/http/httptest"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopcp/gopcp/httpd/httpstd"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/webapi"
)

// tracked is a PMAPI context whose collection the test can see.
type tracked struct{ pmapi.Source }

// TestExpiredContextReleased checks that an expired context's PMAPI
// context (its pmcd connection's buffers and whatever it caches) is
// garbage as soon as the sweep has closed it, while the context itself is
// still known and answers "expired context identifier" until it is
// forgotten: under churn, the contexts closed and not yet forgotten
// outnumber the live ones. The sweep that forgets is an hour away; the
// test waits for collection with a bounded number of GCs, timing nothing.
func TestExpiredContextReleased(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	var collected atomic.Int32
	srv := webapi.New(webapi.Options{Sweep: time.Hour, Open: func(ctx context.Context, spec string) (pmapi.Source, error) {
		src, err := pmapi.NewContext(ctx, pmapi.KindHost, spec)
		if err != nil {
			return nil, err
		}
		tr := &tracked{src}
		runtime.AddCleanup(tr, func(n *atomic.Int32) { n.Add(1) }, &collected)
		return tr, nil
	}})
	defer srv.Close()
	ours := httptest.NewServer(httpstd.Handler(srv))
	defer ours.Close()
	r := &replayer{base: ours.URL, hs: bed.Host(), client: newClient()}
	r.do(t, step{"/pmapi/context?HS&polltimeout=0.1", true, ""})
	for tries := 0; tries < 600 && collected.Load() == 0; tries++ {
		time.Sleep(50 * time.Millisecond)
		runtime.GC()
	}
	if collected.Load() == 0 {
		t.Fatal("the expired context's PMAPI context is still held")
	}
	code, body := r.do(t, step{"/pmapi/CTX/fetch?names=sample.long.one", false, ""})
	if m := goneRe.FindStringSubmatch(body); code != 400 || m == nil || m[1] != "expired" {
		t.Errorf("after release: %d %q, want the context still known as expired", code, body)
	}
	if n := srv.Contexts(); n != 1 {
		t.Errorf("%d contexts known, want the expired one", n)
	}
}
