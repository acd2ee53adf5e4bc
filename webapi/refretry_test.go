package webapi_test

import (
	"bufio"
	"net"
	"net/http"
	"testing"
)

// fakeReference listens on loopback and hands the nth connection (from
// 1) to serve; conns receives n as each is accepted. It stops with the
// test.
func fakeReference(t *testing.T, serve func(n int, c net.Conn)) (base string, conns chan int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	conns = make(chan int, 8)
	go func() {
		for n := 1; ; n++ {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns <- n
			serve(n, c)
			c.Close()
		}
	}()
	return "http://" + ln.Addr().String(), conns
}

// TestReplayerRetriesReference: a request PCP's pmproxy (the reference)
// closes unanswered is sent again on a new connection, and the answer
// then given is the one compared.
func TestReplayerRetriesReference(t *testing.T) {
	base, conns := fakeReference(t, func(n int, c net.Conn) {
		// Odd connections are closed before any answer.
		if n%2 == 1 {
			return
		}
		if _, err := http.ReadRequest(bufio.NewReader(c)); err == nil {
			c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 11\r\nConnection: close\r\n\r\n{\"ok\":true}"))
		}
	})
	r := &replayer{base: base, client: newClient(), reference: true}
	code, body := r.do(t, step{path: "/pmapi/_context"})
	if code != 200 || body != `{"ok":true}` {
		t.Errorf("answer %d %q", code, body)
	}
	if n := len(conns); n != 2 {
		t.Errorf("%d connections, want 2", n)
	}
}

// TestReplayerReferenceDied: a request the reference fails to answer
// because its process ended is not sent again; the replayer says how it
// died, for the caller to start over on a new one.
func TestReplayerReferenceDied(t *testing.T) {
	base, conns := fakeReference(t, func(int, net.Conn) {})
	r := &replayer{base: base, client: newClient(), reference: true,
		died: func() string { return "signal: segmentation fault" }}
	if code, body := r.do(t, step{path: "/pmapi/_context"}); code != 0 || body != "" {
		t.Errorf("answer %d %q from a dead reference", code, body)
	}
	if r.dead != "signal: segmentation fault" {
		t.Errorf("dead %q", r.dead)
	}
	if n := len(conns); n != 1 {
		t.Errorf("%d connections, want 1", n)
	}
}
