//go:build linux

package pmcd

import (
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pdu"
)

// setOn says whether srv's set of clients is made and on.
func setOn(srv *Server) bool {
	srv.polls.mu.Lock()
	defer srv.polls.mu.Unlock()
	return srv.polls.cur != nil && srv.polls.cur.on.Load()
}

// inKernelSet counts the clients of srv whose sockets are in the
// kernel's set.
func inKernelSet(srv *Server) int {
	srv.polls.mu.Lock()
	defer srv.polls.mu.Unlock()
	if srv.polls.cur == nil {
		return 0
	}
	n := 0
	for _, w := range srv.polls.cur.all() {
		if w.in.Load() {
			n++
		}
	}
	return n
}

// pollWaitFor polls cond for up to a minute.
func pollWaitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("a minute went by without %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestClientPollServes: with pollMinClients clients and more the set is
// on and every client's requests are answered, all of them asking at
// once; clients that go take it back off, and the goroutines of those
// still there, waiting for their events, are woken to read as before and
// answer what their clients ask next; the last client gone closes it.
func TestClientPollServes(t *testing.T) {
	t.Parallel()
	srv := &Server{PMNS: testTree(t)}
	raw, conns, _ := serveClients(t, srv, pollMinClients+2)
	pollWaitFor(t, "the set on", func() bool { return setOn(srv) })
	if n := inKernelSet(srv); n != len(conns) {
		t.Fatalf("set on with %d of %d sockets in the kernel's set", n, len(conns))
	}
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Go(func() { c.ask(t, 50) })
	}
	wg.Wait()
	// Every goroutine now waits for its client's event. Below
	// pollMinClients the set goes off.
	for _, c := range raw[:3] {
		c.Close()
	}
	pollWaitFor(t, "the set off", func() bool { return !setOn(srv) })
	if n := inKernelSet(srv); n != 0 {
		t.Fatalf("set off with %d sockets still in the kernel's set", n)
	}
	for _, c := range conns[3:] {
		wg.Go(func() { c.ask(t, 20) })
	}
	wg.Wait()
	for _, c := range raw[3:] {
		c.Close()
	}
	pollWaitFor(t, "the set closed", func() bool {
		srv.polls.mu.Lock()
		defer srv.polls.mu.Unlock()
		return srv.polls.cur == nil
	})
}

// TestClientPollFailed: when the set's wait fails, every client whose
// goroutine waits for its event is woken and served without the set, and
// no set is made again.
func TestClientPollFailed(t *testing.T) {
	t.Parallel()
	srv := &Server{PMNS: testTree(t)}
	_, conns, _ := serveClients(t, srv, pollMinClients+1)
	pollWaitFor(t, "the set on", func() bool { return setOn(srv) })
	for _, c := range conns {
		c.ask(t, 2)
	}
	srv.polls.mu.Lock()
	p := srv.polls.cur
	srv.polls.mu.Unlock()
	p.failed()
	if n := inKernelSet(srv); n != 0 {
		t.Fatalf("set failed with %d sockets still in the kernel's set", n)
	}
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Go(func() { c.ask(t, 5) })
	}
	wg.Wait()
	srv.polls.mu.Lock()
	off := srv.polls.off
	srv.polls.mu.Unlock()
	if !off {
		t.Fatal("set failed but not off: a later client would be put in a set again")
	}
}

// TestClientPollShutdown: Serve returns when its context ends while every
// client's goroutine waits for its client's event.
func TestClientPollShutdown(t *testing.T) {
	t.Parallel()
	srv := &Server{PMNS: testTree(t)}
	raw, conns, end := serveClients(t, srv, pollMinClients)
	pollWaitFor(t, "the set on", func() bool { return setOn(srv) })
	for _, c := range conns {
		c.ask(t, 2)
	}
	end()
	for _, c := range raw {
		c.SetReadDeadline(time.Now().Add(time.Minute))
		if _, err := c.Read(make([]byte, 1)); !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
			var op *net.OpError
			if !errors.As(err, &op) {
				t.Fatalf("client after shutdown: read %v, want the connection closed", err)
			}
		}
	}
}

// TestClientPollPartialPDU: with the set on, a client that sends part of a
// PDU and stops is still cut off after the server's Timeout (the read
// under a deadline waits in Go's poller), and the others are answered
// meanwhile.
func TestClientPollPartialPDU(t *testing.T) {
	t.Parallel()
	srv := &Server{PMNS: testTree(t), Timeout: 300 * time.Millisecond}
	raw, conns, _ := serveClients(t, srv, pollMinClients+1)
	pollWaitFor(t, "the set on", func() bool { return setOn(srv) })
	for _, c := range conns {
		c.ask(t, 2)
	}
	// A header's first 6 bytes.
	if _, err := raw[0].Write([]byte{0, 0, 0, 24, 0, 0}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, c := range conns[1:] {
		wg.Go(func() { c.ask(t, 20) })
	}
	wg.Wait()
	raw[0].SetReadDeadline(time.Now().Add(time.Minute))
	b := make([]byte, 64)
	for {
		n, err := raw[0].Read(b)
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatalf("client with part of a PDU sent: %v, want the server to close the connection", err)
			}
			break
		}
		// An ERROR PDU for the timeout may come first.
		if h, herr := pdu.ParseHeader(b[:n]); herr == nil && h.Type != pdu.TypeError {
			t.Fatalf("client with part of a PDU sent got a %v", h.Type)
		}
	}
}

// TestClientPollDescriptor: a client in the set still shows its
// descriptor in the client table (fdOf), as before it was.
func TestClientPollDescriptor(t *testing.T) {
	t.Parallel()
	srv := &Server{PMNS: testTree(t)}
	serveClients(t, srv, pollMinClients)
	pollWaitFor(t, "the set on", func() bool { return setOn(srv) })
	srv.clientsMu.Lock()
	defer srv.clientsMu.Unlock()
	for c := range srv.clients {
		if _, ok := c.conn.(*polledConn); !ok {
			t.Fatalf("client's connection is a %T, not in the set", c.conn)
		}
		if fd := fdOf(c.conn); fd < 0 {
			t.Fatalf("fdOf(client's connection) = %d", fd)
		}
	}
}
