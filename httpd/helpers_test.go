package httpd

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// testServer serves opts on a loopback port until the test ends; tune,
// if set, is applied to each accepted connection before it is added.
type testServer struct {
	*Server
	addr string
}

func start(t *testing.T, opts Options, tune func(net.Conn)) *testServer {
	t.Helper()
	if opts.Handler == nil {
		opts.Handler = echoHandler()
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if tune != nil {
				tune(c)
			}
			_ = s.Add(c)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		s.Close()
	})
	return &testServer{Server: s, addr: ln.Addr().String()}
}

// echoHandler answers "<method> <path> <body length>: <body>"; /big?n=N
// answers N bytes; /panic panics; /slow waits for its context's end.
func echoHandler() Handler {
	return HandlerFunc(func(w ResponseWriter, r *Request) {
		switch r.URL.Path {
		case "/big":
			n := 0
			for _, c := range r.URL.Query().Get("n") {
				n = n*10 + int(c-'0')
			}
			io.WriteString(w, strings.Repeat("b", n))
			return
		case "/panic":
			panic("test panic")
		case "/slow":
			<-r.Context().Done()
			return
		}
		b, err := io.ReadAll(r.Body)
		if err != nil {
			Error(w, err.Error(), StatusInternalServerError)
			return
		}
		io.WriteString(w, r.Method+" "+r.URL.Path+" "+strconv.Itoa(len(b))+": "+string(b))
	})
}

// dial connects with a generous deadline: tests wait for answers, never
// time them.
func dial(t *testing.T, addr string) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(60 * time.Second))
	return c, bufio.NewReader(c)
}

// answer reads one answer from r.
func answer(t *testing.T, r *bufio.Reader, method string) (*http.Response, string) {
	t.Helper()
	resp, err := http.ReadResponse(r, &http.Request{Method: method})
	if err != nil {
		t.Fatalf("reading answer: %v", err)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading body: %v", err)
	}
	resp.Body.Close()
	return resp, string(b)
}

// closedByServer reports whether the server closed c (reading gives EOF
// or a reset, not a timeout) once what it sent is read.
func closedByServer(c net.Conn, r *bufio.Reader) bool {
	_, err := io.ReadAll(r)
	if err == nil {
		return true
	}
	var ne net.Error
	if ok := asNetErr(err, &ne); ok && ne.Timeout() {
		return false
	}
	return true
}

func asNetErr(err error, ne *net.Error) bool {
	e, ok := err.(net.Error)
	if ok {
		*ne = e
	}
	return ok
}

// smallBuffers makes a connection's kernel buffers as small as they go,
// so that an answer of a few KiB fills them.
func smallBuffers(c net.Conn) {
	rc, err := c.(syscall.Conn).SyscallConn()
	if err != nil {
		return
	}
	rc.Control(func(fd uintptr) {
		syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_SNDBUF, 1)
		syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 1)
	})
}

// waitFor polls cond until it holds, for at most 30 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s did not happen", what)
		}
	}
}

func strconvItoa(n int) string { return strconv.Itoa(n) }
