package clitest

import (
	"net"
	"sync"
	"testing"
)

// ServeLoopback listens on a loopback port for the test's life and
// serves each connection it accepts with serve, as ServeEach says. It
// returns the address it listens on.
func ServeLoopback(t testing.TB, serve func(net.Conn)) *net.TCPAddr {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ServeEach(t, ln, serve)
	return ln.Addr().(*net.TCPAddr)
}

// ServeEach accepts on ln for the test's life and serves each connection
// with serve in a goroutine of its own, closing the connection when
// serve returns. The test's cleanup closes ln, closes the connections
// still open and waits for their serve to return, so no goroutine of the
// fake outlives the test: serve must return once its connection is
// closed. A connection accepted while the cleanup runs is closed at
// once, never served (it would miss the cleanup's closing).
func ServeEach(t testing.TB, ln net.Listener, serve func(net.Conn)) {
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
