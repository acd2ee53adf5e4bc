package pmproxy

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/webapi"
)

// rawClient is a kept-alive HTTP/1.1 client that allocates almost
// nothing per request, so that an allocation profile of a benchmark
// through it is the server's.
type rawClient struct {
	c    net.Conn
	r    *bufio.Reader
	body []byte
}

func dialRaw(tb testing.TB, addr string) *rawClient {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	return &rawClient{c: c, r: bufio.NewReaderSize(c, 16<<10), body: make([]byte, 0, 16<<10)}
}

// get sends req (a whole request's bytes) and reads the answer, whose
// body it returns (valid until the next call) with its status.
func (rc *rawClient) get(tb testing.TB, req []byte) (int, []byte) {
	_ = rc.c.SetDeadline(time.Now().Add(60 * time.Second))
	if _, err := rc.c.Write(req); err != nil {
		tb.Fatal(err)
	}
	status, n := 0, -1
	for {
		line, err := rc.r.ReadSlice('\n')
		if err != nil {
			tb.Fatal(err)
		}
		switch {
		case status == 0:
			if len(line) >= 12 {
				status, _ = strconv.Atoi(string(line[9:12]))
			}
		case bytes.HasPrefix(line, []byte("Content-Length: ")):
			n, _ = strconv.Atoi(string(bytes.TrimSpace(line[len("Content-Length: "):])))
		}
		if len(line) <= 2 {
			break
		}
	}
	if n < 0 {
		tb.Fatal("answer without Content-Length")
	}
	rc.body = rc.body[:0]
	for len(rc.body) < n {
		k := min(n-len(rc.body), 4096)
		b, err := rc.r.Peek(k)
		if err != nil && len(b) == 0 {
			tb.Fatal(err)
		}
		rc.body = append(rc.body, b...)
		rc.r.Discard(len(b))
	}
	return status, rc.body
}

// proxyBed is our pmproxy's REST API in front of a private pmcd.
func proxyBed(tb testing.TB) (addr string, bed *testbed.PMCD) {
	bed = testbed.StartPMCD(tb, testbed.Options{})
	api := webapi.New(webapi.Options{})
	tb.Cleanup(func() { api.Close() })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, Config{HTTP: NewMux(api)}, ln) }()
	tb.Cleanup(func() { cancel(); <-done })
	return ln.Addr().String(), bed
}

func request(path string) []byte {
	return []byte("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nUser-Agent: bench\r\nAccept: */*\r\n\r\n")
}

// BenchmarkFetch is /pmapi/CTX/fetch of two metrics on one web context
// through the whole server, the request of the bench's burst; with
// -benchmem its allocations are the server's (and the private pmcd's
// round trip), -memprofile says where.
func BenchmarkFetch(b *testing.B) {
	addr, bed := proxyBed(b)
	rc := dialRaw(b, addr)
	code, body := rc.get(b, request("/pmapi/context?hostspec="+bed.Host()+"&polltimeout=3600"))
	if code != 200 {
		b.Fatalf("context: %d %s", code, body)
	}
	id := string(bytes.TrimPrefix(bytes.SplitN(body, []byte(","), 2)[0], []byte(`{"context":`)))
	req := request("/pmapi/" + id + "/fetch?names=sample.long.one,sample.bin")
	if code, body := rc.get(b, req); code != 200 {
		b.Fatalf("fetch: %d %s", code, body)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if code, body := rc.get(b, req); code != 200 {
			b.Fatalf("fetch: %d %s", code, body)
		}
	}
}

// BenchmarkNewContext is /pmapi/context with polltimeout=0.5, the
// request of the bench's churn: a web context and its pmcd connection
// each time, expired and forgotten as the benchmark goes on.
func BenchmarkNewContext(b *testing.B) {
	addr, bed := proxyBed(b)
	rc := dialRaw(b, addr)
	req := request("/pmapi/context?hostspec=" + bed.Host() + "&polltimeout=0.5")
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if code, body := rc.get(b, req); code != 200 {
			b.Fatalf("context: %d %s", code, body)
		}
	}
}

// TestFetchAllocates: a /pmapi/CTX/fetch of two metrics (ten values)
// through the whole server allocates at most 2.25 KiB, client included.
// Garbage is what drives the heap to its goal between collections (and,
// through FollowLiveHeap's margin, what a burst leaves resident);
// answers built in a buffer grown from nothing made it 9 KiB (28 Nov),
// 4.5 KiB of it the answer's copies, then 3.6-3.7 KiB; a context per
// request, url.Values, a new pcp.Result per fetch and a new head,
// Request and response per request made it 3.6, now 1.7-1.8 KiB.
func TestFetchAllocates(t *testing.T) {
	if raceEnabled {
		t.Skip("under the race detector sync.Pool drops what is put back at random, so pooled buffers are allocated again")
	}
	addr, bed := proxyBed(t)
	rc := dialRaw(t, addr)
	code, body := rc.get(t, request("/pmapi/context?hostspec="+bed.Host()+"&polltimeout=3600"))
	if code != 200 {
		t.Fatalf("context: %d %s", code, body)
	}
	id := string(bytes.TrimPrefix(bytes.SplitN(body, []byte(","), 2)[0], []byte(`{"context":`)))
	req := request("/pmapi/" + id + "/fetch?names=sample.long.one,sample.bin")
	fetch := func() {
		if code, body := rc.get(t, req); code != 200 || !bytes.Contains(body, []byte(`"name":"sample.bin"`)) {
			t.Fatalf("fetch: %d %s", code, body)
		}
	}
	for range 20 { // the context's metadata, the pools
		fetch()
	}
	const n = 500
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		fetch()
	}
	runtime.ReadMemStats(&after)
	per := (after.TotalAlloc - before.TotalAlloc) / n
	t.Logf("%d bytes allocated per fetch", per)
	if per > 2304 {
		t.Errorf("%d bytes allocated per fetch, want at most 2.25 KiB", per)
	}
}
