package httpd

import (
	"bufio"
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// lockServer serves /block, which holds the handlers' "lock" until the
// test releases it, and /wait, which waits for it (as pmproxy's fetches
// on one web context wait for the one running); any other path echoes.
// entered gets the server's worker count as each handler starts.
type lockServer struct {
	*testServer
	release    chan struct{}
	releaseAll func()
	entered    chan int
}

func startLockServer(t *testing.T, opts Options) *lockServer {
	ls := &lockServer{release: make(chan struct{}), entered: make(chan int, 1024)}
	var once sync.Once
	echo := echoHandler()
	opts.Handler = HandlerFunc(func(w ResponseWriter, r *Request) {
		switch r.URL.Path {
		case "/block", "/wait":
			ls.Server.mu.Lock()
			n := ls.Server.workers
			ls.Server.mu.Unlock()
			ls.entered <- n
			<-ls.release
			io.WriteString(w, "done")
		default:
			echo.ServeHTTP(w, r)
		}
	})
	ls.testServer = start(t, opts, nil)
	t.Cleanup(func() { once.Do(func() { close(ls.release) }) })
	ls.releaseAll = func() { once.Do(func() { close(ls.release) }) }
	return ls
}

func (ls *lockServer) workers() int {
	ls.Server.mu.Lock()
	defer ls.Server.mu.Unlock()
	return ls.Server.workers
}

// TestStallStartsWorkersInBatches: requests queued behind handlers that
// wait on one lock get extra workers a batch at a time, not one each at
// once (which, under a burst of fetches on one web context, started
// hundreds of goroutines that all waited on the same lock); and still,
// while nothing finishes, every queued request gets a worker in the end.
func TestStallStartsWorkersInBatches(t *testing.T) {
	const n = 40
	ls := startLockServer(t, Options{Workers: 1, MaxWorkers: 64})
	var readers []*bufio.Reader
	c, r := dial(t, ls.addr)
	io.WriteString(c, "GET /block HTTP/1.1\r\n\r\n")
	readers = append(readers, r)
	<-ls.entered
	for i := 0; i < n; i++ {
		c, r := dial(t, ls.addr)
		io.WriteString(c, "GET /wait HTTP/1.1\r\n\r\n")
		readers = append(readers, r)
	}
	// The first extra worker's handler sees how many were started with
	// it: the one stuck, and the first batch (Workers, 1), unless it ran
	// only after further stalls had started more. One per request at
	// once makes it see n+1.
	if first := <-ls.entered; first > 8 {
		t.Errorf("%d workers running when the first extra one started, want the first batch (2)", first)
	}
	for i := 1; i < n; i++ {
		<-ls.entered
	}
	if got := ls.workers(); got != n+1 {
		t.Errorf("%d workers once every request waits in a handler, want %d", got, n+1)
	}
	ls.releaseAll()
	for i, r := range readers {
		if resp, body := answer(t, r, "GET"); resp.StatusCode != 200 || body != "done" {
			t.Errorf("request %d: %d %q", i, resp.StatusCode, body)
		}
	}
}

// TestExtraWorkersEnd: the workers started for a stall end once the
// queue is served, rather than waiting for more work with their stacks
// as the first Workers do.
func TestExtraWorkersEnd(t *testing.T) {
	ls := startLockServer(t, Options{Workers: 1, MaxWorkers: 64, workerIdle: time.Hour})
	c, blockR := dial(t, ls.addr)
	io.WriteString(c, "GET /block HTTP/1.1\r\n\r\n")
	<-ls.entered
	var conns []net.Conn
	for i := 0; i < 5; i++ {
		c, r := dial(t, ls.addr)
		conns = append(conns, c)
		io.WriteString(c, "GET /x HTTP/1.1\r\n\r\n")
		if resp, body := answer(t, r, "GET"); resp.StatusCode != 200 || body != "GET /x 0: " {
			t.Fatalf("answer behind a stuck handler: %d %q", resp.StatusCode, body)
		}
	}
	waitFor(t, "the extra workers' end", func() bool { return ls.workers() == 1 })
	ls.releaseAll()
	if resp, body := answer(t, blockR, "GET"); resp.StatusCode != 200 || body != "done" {
		t.Errorf("blocked request: %d %q", resp.StatusCode, body)
	}
	// the worker of the first Workers stays, idle, for its workerIdle
	if got := ls.workers(); got != 1 {
		t.Errorf("%d workers after the blocked request, want 1 kept", got)
	}
	for _, c := range conns {
		c.Close()
	}
}
