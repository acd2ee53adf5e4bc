package httpd

import (
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/goroutines"
)

// TestClientKeepAlive: net/http's client over kept-alive connections,
// GET, HEAD and POST, with bodies sized around the buffers.
func TestClientKeepAlive(t *testing.T) {
	ts := start(t, Options{}, nil)
	c := &http.Client{Timeout: 60 * time.Second}
	for _, n := range []int{0, 1, 4095, 4096, 4097, 100000} {
		resp, err := c.Get("http://" + ts.addr + "/big?n=" + fmtInt(n))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || len(b) != n || strings.Trim(string(b), "b") != "" {
			t.Errorf("GET %d bytes: %d, %d bytes", n, resp.StatusCode, len(b))
		}
		chunked := len(resp.TransferEncoding) > 0
		if chunked != (n > 4096) || (!chunked && resp.ContentLength != int64(n)) {
			t.Errorf("GET %d bytes: length %d, transfer encoding %v", n, resp.ContentLength, resp.TransferEncoding)
		}
		if n > 0 && resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
			t.Errorf("GET %d bytes: Content-Type %q", n, resp.Header.Get("Content-Type"))
		}
		if resp.Header.Get("Date") == "" {
			t.Errorf("GET %d bytes: no Date", n)
		}
	}
	resp, err := c.Head("http://" + ts.addr + "/big?n=10")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.ContentLength != 10 {
		t.Errorf("HEAD: %d, length %d", resp.StatusCode, resp.ContentLength)
	}
	body := strings.Repeat("p", 70000)
	resp, err = c.Post("http://"+ts.addr+"/post", "text/plain", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := "POST /post 70000: " + body; string(b) != want {
		t.Errorf("POST: %d %.40q", resp.StatusCode, b)
	}
}

func fmtInt(n int) string { return strconvItoa(n) }

// TestRaw sends requests as bytes and checks the answer's status, and
// whether the server then closed the connection.
func TestRaw(t *testing.T) {
	ts := start(t, Options{MaxHeaderBytes: 1024, MaxBodyBytes: 100}, nil)
	for _, c := range []struct {
		name, req string
		status    int
		body      string // the answer's body, when given
		closed    bool
	}{
		{"plain", "GET /a HTTP/1.1\r\nHost: x\r\n\r\n", 200, "GET /a 0: ", false},
		{"no Host", "GET /a HTTP/1.1\r\n\r\n", 200, "", false},
		{"bare LF", "GET /a HTTP/1.1\nHost: x\n\n", 200, "", false},
		{"CRLF after a body", "POST /p HTTP/1.1\r\nContent-Length: 1\r\n\r\nx\r\n", 200, "POST /p 1: x", false},
		{"HTTP/1.0", "GET /a HTTP/1.0\r\n\r\n", 200, "", true},
		{"HTTP/1.0 keep-alive", "GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", 200, "", false},
		{"Connection: close", "GET /a HTTP/1.1\r\nConnection: close\r\n\r\n", 200, "", true},
		{"Content-Length", "POST /p HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc", 200, "POST /p 3: abc", false},
		{"same Content-Length twice", "POST /p HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc", 200, "POST /p 3: abc", false},
		{"differing Content-Lengths", "POST /p HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400, "", true},
		{"Content-Length list", "POST /p HTTP/1.1\r\nContent-Length: 3, 4\r\n\r\nabcd", 400, "", true},
		{"signed Content-Length", "POST /p HTTP/1.1\r\nContent-Length: +3\r\n\r\nabc", 400, "", true},
		{"both framings", "POST /p HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400, "", true},
		{"chunked", "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nT: v\r\n\r\n", 200, "POST /p 5: abcde", false},
		{"bad chunk size", "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n", 400, "", true},
		{"chunk longer than its size", "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc\r\n0\r\n\r\n", 400, "", true},
		{"gzip", "POST /p HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "", true},
		{"HTTP/2.0", "GET /a HTTP/2.0\r\n\r\n", 505, "", true},
		{"HTTP/x", "GET /a HTTP/x\r\n\r\n", 400, "", true},
		{"two spaces", "GET  /a HTTP/1.1\r\n\r\n", 400, "", true},
		{"no version", "GET /a\r\n\r\n", 400, "", true},
		{"bad method", "G(T /a HTTP/1.1\r\n\r\n", 400, "", true},
		{"space before colon", "GET /a HTTP/1.1\r\nHost : x\r\n\r\n", 400, "", true},
		{"folded header", "GET /a HTTP/1.1\r\nX: a\r\n b\r\n\r\n", 400, "", true},
		{"control byte", "GET /a HTTP/1.1\r\nX: a\x01b\r\n\r\n", 400, "", true},
		{"two Hosts", "GET /a HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "", true},
		{"bad URI", "GET /%zz HTTP/1.1\r\n\r\n", 400, "", true},
		{"Expect", "POST /p HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nab", 200, "POST /p 2: ab", false},
		{"unknown Expect", "POST /p HTTP/1.1\r\nExpect: magic\r\nContent-Length: 2\r\n\r\nab", 417, "", true},
		{"body over the bound", "POST /p HTTP/1.1\r\nContent-Length: 101\r\n\r\n", 413, "", true},
		{"chunk line over its bound", "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1;" + strings.Repeat("e", maxChunkLine), 400, "", true},
		{"chunked body over the bound", "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n65\r\n", 413, "", true},
		{"head over the bound", "GET /a HTTP/1.1\r\nX: " + strings.Repeat("x", 1024) + "\r\n\r\n", 431, "", true},
		{"head over the bound, incomplete", "GET /a HTTP/1.1\r\nX: " + strings.Repeat("x", 1024), 431, "", true},
		{"panic", "GET /panic HTTP/1.1\r\n\r\n", 0, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn, r := dial(t, ts.addr)
			io.WriteString(conn, c.req)
			if c.status == 0 {
				if b, _ := io.ReadAll(r); len(b) != 0 {
					t.Errorf("answered %q", b)
				}
				return
			}
			resp, body := answer(t, r, "GET")
			if resp.StatusCode != c.status {
				t.Errorf("status %d, want %d (%q)", resp.StatusCode, c.status, body)
			}
			if c.body != "" && body != c.body {
				t.Errorf("body %q, want %q", body, c.body)
			}
			if c.closed != resp.Close {
				t.Errorf("Connection: close said %v, want %v", resp.Close, c.closed)
			}
			if !c.closed {
				// the connection goes on: a second request is answered
				io.WriteString(conn, "GET /again HTTP/1.1\r\n\r\n")
				if resp, body := answer(t, r, "GET"); resp.StatusCode != 200 || body != "GET /again 0: " {
					t.Errorf("next request: %d %q", resp.StatusCode, body)
				}
				return
			}
			_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
			if !closedByServer(conn, r) {
				t.Errorf("connection left open")
			}
		})
	}
}

// TestPipelined: requests sent in one write are answered in order, and
// one byte at a time as well.
func TestPipelined(t *testing.T) {
	ts := start(t, Options{}, nil)
	var reqs strings.Builder
	const n = 50
	for i := 0; i < n; i++ {
		reqs.WriteString("POST /" + fmtInt(i) + " HTTP/1.1\r\nContent-Length: 1\r\n\r\nx")
	}
	for _, bytewise := range []bool{false, true} {
		conn, r := dial(t, ts.addr)
		go func() {
			if !bytewise {
				io.WriteString(conn, reqs.String())
				return
			}
			for _, b := range []byte(reqs.String()) {
				conn.Write([]byte{b})
			}
		}()
		for i := 0; i < n; i++ {
			if resp, body := answer(t, r, "POST"); resp.StatusCode != 200 || body != "POST /"+fmtInt(i)+" 1: x" {
				t.Fatalf("answer %d: %d %q", i, resp.StatusCode, body)
			}
		}
	}
}

// TestExpectContinue: the client waits for 100 Continue before it sends
// the body.
func TestExpectContinue(t *testing.T) {
	ts := start(t, Options{}, nil)
	conn, r := dial(t, ts.addr)
	io.WriteString(conn, "PUT /p HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
	line, err := r.ReadString('\n')
	if err != nil || line != "HTTP/1.1 100 Continue\r\n" {
		t.Fatalf("interim answer %q %v", line, err)
	}
	if blank, _ := r.ReadString('\n'); blank != "\r\n" {
		t.Fatalf("after 100 Continue: %q", blank)
	}
	io.WriteString(conn, "body")
	if resp, body := answer(t, r, "PUT"); resp.StatusCode != 200 || body != "PUT /p 4: body" {
		t.Errorf("answer %d %q", resp.StatusCode, body)
	}
}

// TestTimeouts: each wait past its bound ends the connection, with 408
// when part of a request came. The bounds are short and the test only
// waits for their effect, never measures it.
func TestTimeouts(t *testing.T) {
	const short = 50 * time.Millisecond
	for _, c := range []struct {
		name string
		opts Options
		send string
		drip bool // send it a byte at a time, for ever (slowloris)
		want string
	}{
		{"first byte", Options{FirstByteTimeout: short}, "", false, ""},
		{"idle", Options{IdleTimeout: short}, "GET /a HTTP/1.1\r\n\r\n", false, "200"},
		{"header", Options{HeaderTimeout: short}, "GET /a HTTP/1.1\r\nHost:", false, "408"},
		{"slowloris", Options{HeaderTimeout: short}, "GET /a HTTP/1.1\r\n" + strings.Repeat("X-A: b\r\n", 10000), true, "408"},
		{"body", Options{ReadTimeout: short}, "POST /a HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc", false, "408"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ts := start(t, c.opts, nil)
			conn, r := dial(t, ts.addr)
			stop := make(chan struct{})
			defer close(stop)
			if c.drip {
				go func() {
					for _, b := range []byte(c.send) {
						select {
						case <-stop:
							return
						case <-time.After(5 * time.Millisecond):
						}
						if _, err := conn.Write([]byte{b}); err != nil {
							return
						}
					}
				}()
			} else {
				io.WriteString(conn, c.send)
			}
			var statuses []string
			for {
				resp, err := http.ReadResponse(r, nil)
				if err != nil {
					break
				}
				io.Copy(io.Discard, resp.Body)
				statuses = append(statuses, resp.Status[:3])
			}
			if got := strings.Join(statuses, " "); got != c.want {
				t.Errorf("answers %q, want %q", got, c.want)
			}
			waitFor(t, "the server forgetting the connection", func() bool { return ts.Conns() == 0 })
		})
	}
}

// TestWriteTimeout: an answer the client does not read ends the
// connection once the write deadline passes; the worker goes on.
func TestWriteTimeout(t *testing.T) {
	ts := start(t, Options{WriteTimeout: 50 * time.Millisecond, Workers: 1, MaxWorkers: 1}, smallBuffers)
	conn, _ := dial(t, ts.addr)
	smallBuffers(conn)
	io.WriteString(conn, "GET /big?n=10000000 HTTP/1.1\r\n\r\n")
	waitFor(t, "the unread answer's connection closing", func() bool { return ts.Conns() == 0 })
	other, r := dial(t, ts.addr)
	io.WriteString(other, "GET /x HTTP/1.1\r\n\r\n")
	if resp, _ := answer(t, r, "GET"); resp.StatusCode != 200 {
		t.Errorf("next client: %d", resp.StatusCode)
	}
}

// TestSlowReaderHoldsNoWorker: with one worker, a client that sends
// requests and does not read their answers leaves the end of an answer
// to a writer of its own: another client is served meanwhile, and the
// slow one gets all its answers once it reads.
func TestSlowReaderHoldsNoWorker(t *testing.T) {
	ts := start(t, Options{Workers: 1, MaxWorkers: 1}, smallBuffers)
	slow, slowR := dial(t, ts.addr)
	smallBuffers(slow)
	const n = 20
	io.WriteString(slow, strings.Repeat("GET /big?n=3000 HTTP/1.1\r\n\r\n", n))
	other, r := dial(t, ts.addr)
	io.WriteString(other, "GET /x HTTP/1.1\r\n\r\n")
	if resp, _ := answer(t, r, "GET"); resp.StatusCode != 200 {
		t.Errorf("other client: %d", resp.StatusCode)
	}
	for i := 0; i < n; i++ {
		if resp, body := answer(t, slowR, "GET"); resp.StatusCode != 200 || len(body) != 3000 {
			t.Fatalf("slow client's answer %d: %d, %d bytes", i, resp.StatusCode, len(body))
		}
	}
}

// TestClientGoneMidRequest: a client closing with part of a request
// sent, or in the middle of its body, leaves nothing behind.
func TestClientGoneMidRequest(t *testing.T) {
	ts := start(t, Options{}, nil)
	for _, part := range []string{"GET /a HT", "POST /a HTTP/1.1\r\nContent-Length: 100\r\n\r\nabc", "G"} {
		conn, _ := dial(t, ts.addr)
		io.WriteString(conn, part)
		conn.Close()
	}
	waitFor(t, "the server forgetting closed connections", func() bool { return ts.Conns() == 0 })
}

// TestOther: a connection whose first byte is no method's goes to
// Options.Other with that byte unread; without Other it is closed.
func TestOther(t *testing.T) {
	got := make(chan string, 1)
	ts := start(t, Options{Other: func(c net.Conn) {
		defer c.Close()
		b := make([]byte, 5)
		io.ReadFull(c, b)
		got <- string(b)
	}}, nil)
	conn, _ := dial(t, ts.addr)
	io.WriteString(conn, "pcp!!")
	if s := <-got; s != "pcp!!" {
		t.Errorf("Other read %q", s)
	}
	none := start(t, Options{}, nil)
	conn, r := dial(t, none.addr)
	io.WriteString(conn, "\x00junk\r\n\r\n")
	if b, _ := io.ReadAll(r); len(b) != 0 {
		t.Errorf("unknown protocol answered %q", b)
	}
}

// TestManyConnections opens and closes 10,000 connections, each with a
// request, 50 at a time, then closes the server: no descriptor and no
// goroutine of the package is left.
func TestManyConnections(t *testing.T) {
	fds := func() int {
		d, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skip(err)
		}
		return len(d)
	}
	before := fds()
	s, err := New(Options{Handler: echoHandler()})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted := make(chan struct{})
	go func() {
		defer close(accepted)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.Add(c)
		}
	}()
	const total, par = 10000, 50
	var wg sync.WaitGroup
	var mu sync.Mutex
	failed := 0
	for w := 0; w < par; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 512)
			for i := 0; i < total/par; i++ {
				c, err := net.Dial("tcp", ln.Addr().String())
				if err != nil {
					mu.Lock()
					failed++
					mu.Unlock()
					continue
				}
				c.SetDeadline(time.Now().Add(60 * time.Second))
				io.WriteString(c, "GET /m HTTP/1.1\r\n\r\n")
				n, _ := c.Read(buf)
				if !strings.HasPrefix(string(buf[:n]), "HTTP/1.1 200 OK") {
					mu.Lock()
					failed++
					mu.Unlock()
				}
				c.Close()
			}
		}()
	}
	wg.Wait()
	if failed > 0 {
		t.Errorf("%d of %d connections failed", failed, total)
	}
	waitFor(t, "the server forgetting 10,000 closed connections", func() bool { return s.Conns() == 0 })
	ln.Close()
	<-accepted
	s.Close()
	if left := goroutines.Left("github.com/gopcp/gopcp/httpd."); len(left) > 0 {
		t.Errorf("goroutines left:\n%s", strings.Join(left, "\n\n"))
	}
	waitFor(t, "descriptors back to their count", func() bool { return fds() <= before })
}

// TestCloseEndsRequests: Close cancels a request's context, waits for
// its handler, and closes idle connections.
func TestCloseEndsRequests(t *testing.T) {
	running := make(chan struct{})
	s, err := New(Options{Handler: HandlerFunc(func(w ResponseWriter, r *Request) {
		close(running)
		<-r.Context().Done()
	})})
	if err != nil {
		t.Fatal(err)
	}
	a, b := net.Pipe()
	a.Close()
	b.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	idle, _ := net.Dial("tcp", ln.Addr().String())
	defer idle.Close()
	busy, _ := net.Dial("tcp", ln.Addr().String())
	defer busy.Close()
	for i := 0; i < 2; i++ {
		c, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		s.Add(c)
	}
	io.WriteString(busy, "GET /slow HTTP/1.1\r\n\r\n")
	<-running
	s.Close()
	for _, c := range []net.Conn{idle, busy} {
		c.SetDeadline(time.Now().Add(30 * time.Second))
		io.ReadAll(c)
	}
	if left := goroutines.Left("github.com/gopcp/gopcp/httpd."); len(left) > 0 {
		t.Errorf("goroutines left:\n%s", strings.Join(left, "\n\n"))
	}
	if err := s.Add(a); err == nil {
		t.Errorf("Add after Close accepted a connection")
	}
}

// TestPipelinedTakesTurns: with one worker, a connection with a hundred
// pipelined requests answers maxPerTurn of them and then lets another
// connection, ready meanwhile, have its turn.
func TestPipelinedTakesTurns(t *testing.T) {
	var mu sync.Mutex
	var order []string
	var ts *testServer
	queued := func() int {
		ts.mu.Lock()
		defer ts.mu.Unlock()
		return len(ts.queue)
	}
	first := true
	ts = start(t, Options{Workers: 1, MaxWorkers: 1, Handler: HandlerFunc(func(w ResponseWriter, r *Request) {
		mu.Lock()
		order = append(order, r.URL.Path)
		wait := first
		first = false
		mu.Unlock()
		if wait {
			// the other connection is read and waits for the worker
			waitFor(t, "the other connection queued", func() bool { return queued() > 0 })
		}
	})}, nil)
	flood, floodR := dial(t, ts.addr)
	const n = 100
	io.WriteString(flood, strings.Repeat("GET /f HTTP/1.1\r\n\r\n", n))
	waitFor(t, "the first request running", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(order) > 0
	})
	other, otherR := dial(t, ts.addr)
	io.WriteString(other, "GET /s HTTP/1.1\r\n\r\n")
	answer(t, otherR, "GET")
	for i := 0; i < n; i++ {
		answer(t, floodR, "GET")
	}
	mu.Lock()
	defer mu.Unlock()
	if i := slices.Index(order, "/s"); i != maxPerTurn {
		t.Errorf("the other connection's request answered %dth, want after %d of the pipelined", i, maxPerTurn)
	}
}

// TestStuckWorkers: when the one worker is held by a handler that does
// not finish, a request behind it gets a worker of its own.
func TestStuckWorkers(t *testing.T) {
	ts := start(t, Options{Workers: 1}, nil)
	slow, _ := dial(t, ts.addr)
	io.WriteString(slow, "GET /slow HTTP/1.1\r\n\r\n")
	other, r := dial(t, ts.addr)
	io.WriteString(other, "GET /x HTTP/1.1\r\n\r\n")
	if resp, body := answer(t, r, "GET"); resp.StatusCode != 200 || body != "GET /x 0: " {
		t.Errorf("answer behind a stuck handler: %d %q", resp.StatusCode, body)
	}
}
