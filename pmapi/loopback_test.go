package pmapi

import (
	"io"
	"net"
	"sync"
	"testing"
)

// loopbackServer stands in for a pmcd or a proxy: it listens on a loopback
// port for the test's life and serves each connection it accepts with
// serve, in a goroutine of its own, closing the connection when serve
// returns. It returns the address it listens on.
//
// The test's cleanup stops accepting, closes the connections still open
// and waits for their serve to return, so no goroutine of the fake
// outlives the test: serve must return once its connection is closed.
func loopbackServer(t *testing.T, serve func(net.Conn)) *net.TCPAddr {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serveEach(t, ln, serve)
	return ln.Addr().(*net.TCPAddr)
}

// splice relays between a client and a server until either side ends,
// then closes both and returns once both directions have stopped. What
// the client sends goes to tee first (when not nil), then to the server,
// so that a request is seen before its reply can come back.
func splice(client, server net.Conn, tee io.Writer) {
	up := io.Writer(server)
	if tee != nil {
		up = io.MultiWriter(tee, server)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		io.Copy(up, client)
		server.Close()
	}()
	io.Copy(client, server)
	client.Close()
	server.Close()
	<-done
}

// serveEach accepts on ln for the test's life and serves each connection
// with serve, as loopbackServer says; ln is closed when the test ends.
func serveEach(t *testing.T, ln net.Listener, serve func(net.Conn)) {
	var (
		mu    sync.Mutex
		open  = make(map[net.Conn]bool)
		ended bool
		wg    sync.WaitGroup
	)
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			if ended {
				mu.Unlock()
				c.Close()
				return
			}
			open[c] = true
			wg.Go(func() {
				defer func() {
					mu.Lock()
					delete(open, c)
					mu.Unlock()
					c.Close()
				}()
				serve(c)
			})
			mu.Unlock()
		}
	})
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		ended = true
		for c := range open {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
}
