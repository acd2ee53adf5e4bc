package webapi_test

import (
	"context"
	"io"
	"net/http"
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

// closeCounted is a PMAPI context that counts its closing.
type closeCounted struct {
	pmapi.Source
	closed *atomic.Int32
}

func (c *closeCounted) Close() error {
	c.closed.Add(1)
	return c.Source.Close()
}

// TestContextHeap makes 100 web contexts and measures what each holds
// in heap while it lives (its PMAPI context and pmcd connection, its
// labels and identifiers) and once it has expired and been closed but
// not yet forgotten (under pmproxy's churn these outnumber the live
// ones), and logs the bytes allocated to make one. No time is measured.
func TestContextHeap(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	var closed atomic.Int32
	srv := webapi.New(webapi.Options{Sweep: time.Hour, Open: func(ctx context.Context, spec string) (pmapi.Source, error) {
		src, err := pmapi.NewContext(ctx, pmapi.KindHost, spec)
		if err != nil {
			return nil, err
		}
		return &closeCounted{src, &closed}, nil
	}})
	defer srv.Close()
	ours := httptest.NewServer(httpstd.Handler(srv))
	defer ours.Close()
	// as long as the test may wait: a fixed 30 s is passed at load
	client := &http.Client{Timeout: testbed.WaitBound(t)}
	newContext := func(poll string) {
		resp, err := client.Get(ours.URL + "/pmapi/context?hostspec=" + bed.Host() + "&polltimeout=" + poll)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("new context: %s", resp.Status)
		}
	}
	mem := func() runtime.MemStats {
		// Twice: pooled buffers survive one collection.
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m
	}
	// What the process and the client's connection set up once.
	newContext("3600")
	const n = 100
	before := mem()
	for range n {
		newContext("3600")
	}
	after := mem()
	live := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n
	made := (after.TotalAlloc - before.TotalAlloc) / n
	t.Logf("per live web context: %d bytes of heap; %d bytes allocated to make one (client side included)", live, made)
	// Measured 3.4 KiB (28 Nov): 4.5 KiB while each pmcd connection kept
	// its PDU reader's storage, 9.1 KiB with its 4 KiB read buffer too.
	if limit := int64(4 << 10); live > limit {
		t.Errorf("heap per live web context %d bytes, want at most %d", live, limit)
	}

	before = mem()
	want := closed.Load() + n
	for range n {
		newContext("0.001")
	}
	for tries := 0; tries < 600 && closed.Load() < want; tries++ {
		time.Sleep(20 * time.Millisecond)
	}
	if closed.Load() < want {
		t.Fatalf("%d of %d expired contexts closed", closed.Load()-want+n, n)
	}
	after = mem()
	gone := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n
	t.Logf("per expired web context not yet forgotten: %d bytes of heap", gone)
	if limit := int64(1 << 10); gone > limit {
		t.Errorf("heap per expired web context %d bytes, want at most %d", gone, limit)
	}
	if c := srv.Contexts(); c != 2*n+1 {
		t.Errorf("%d contexts known, want %d", c, 2*n+1)
	}
}
