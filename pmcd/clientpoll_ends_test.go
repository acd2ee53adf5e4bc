//go:build linux

package pmcd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pdu"
)

// serveSetOn serves n clients (serveClients), waits for the set to be
// on and has each client ask twice, so that every client's goroutine has
// read with the set on.
func serveSetOn(t *testing.T, n int) (*Server, []net.Conn, []procsConn, func()) {
	t.Helper()
	srv := &Server{PMNS: testTree(t)}
	raw, conns, end := serveClients(t, srv, n)
	pollWaitFor(t, "the set on", func() bool { return setOn(srv) })
	for _, c := range conns {
		c.ask(t, 2)
	}
	return srv, raw, conns, end
}

// namesPDUs is n PMNS_NAMES requests, back to back, as one client would
// pipeline them.
func namesPDUs(t *testing.T, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := pdu.NewWriter(&buf)
	for range n {
		if err := w.WriteMessage(context.Background(), &pdu.PMNSNames{Names: []string{"kernel.all.load"}}, 1); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// readAnswers reads n answers from c, each within a minute.
func readAnswers(c procsConn, n int) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for i := range n {
		if _, err := c.r.ReadPDU(ctx); err != nil {
			return fmt.Errorf("answer %d of %d: %w", i+1, n, err)
		}
	}
	return nil
}

// TestClientPollPipelined: with the set on, requests sent in one write
// (several PDUs in one read of the server's buffer) are all answered: the
// client's goroutine does not wait for an event while its buffer still
// holds a request.
func TestClientPollPipelined(t *testing.T) {
	t.Parallel()
	_, raw, conns, _ := serveSetOn(t, pollMinClients)
	five := namesPDUs(t, 5)
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Go(func() {
			for range 20 {
				if _, err := raw[i].Write(five); err != nil {
					t.Error(err)
					return
				}
				if err := readAnswers(c, 5); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestClientPollHalfClose: with the set on, a client that sends a request
// and shuts its side down gets its answer and then the end of the
// connection, as it does with the set off; its place in the set goes.
func TestClientPollHalfClose(t *testing.T) {
	t.Parallel()
	srv, raw, conns, _ := serveSetOn(t, pollMinClients+1)
	// The server's goroutine for raw[0] waits for its event now.
	if _, err := raw[0].Write(namesPDUs(t, 1)); err != nil {
		t.Fatal(err)
	}
	if err := raw[0].(*net.TCPConn).CloseWrite(); err != nil {
		t.Fatal(err)
	}
	if err := readAnswers(conns[0], 1); err != nil {
		t.Fatal(err)
	}
	raw[0].SetReadDeadline(time.Now().Add(time.Minute))
	if _, err := raw[0].Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Fatalf("half-closed client read %v after its answer, want EOF", err)
	}
	pollWaitFor(t, "the half-closed client out of the set", func() bool { return inKernelSet(srv) == pollMinClients })
	// A client whose goroutine waits, then half-closes without a request.
	if err := raw[1].(*net.TCPConn).CloseWrite(); err != nil {
		t.Fatal(err)
	}
	raw[1].SetReadDeadline(time.Now().Add(time.Minute))
	if _, err := raw[1].Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Fatalf("half-closed idle client read %v, want EOF", err)
	}
	for _, c := range conns[2:] {
		c.ask(t, 2)
	}
}

// TestClientPollUnix: clients on a Unix socket go into the set as TCP
// clients do, and are answered.
func TestClientPollUnix(t *testing.T) {
	t.Parallel()
	srv := &Server{PMNS: testTree(t)}
	path := filepath.Join(t.TempDir(), "pmcd.socket")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, l) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
		srv.Close()
	})
	var conns []procsConn
	for range pollMinClients + 1 {
		c, err := net.Dial("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		hctx, hcancel := context.WithTimeout(context.Background(), time.Minute)
		if _, err := pdu.ClientHandshake(hctx, c, 0, pdu.DefaultTimeout); err != nil {
			t.Fatalf("handshake: %v", err)
		}
		hcancel()
		conns = append(conns, procsConn{pdu.NewReader(c, pdu.DefaultTimeout), pdu.NewWriter(c)})
	}
	pollWaitFor(t, "the set on", func() bool { return setOn(srv) })
	pollWaitFor(t, "every Unix client in the set", func() bool { return inKernelSet(srv) == pollMinClients+1 })
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Go(func() { c.ask(t, 50) })
	}
	wg.Wait()
}

// TestClientPollEndsWithServe: by the time Serve has returned the set is
// closed, its goroutine told to end and no client left in it, while the
// clients' goroutines were waiting for their events.
func TestClientPollEndsWithServe(t *testing.T) {
	t.Parallel()
	srv, _, _, end := serveSetOn(t, pollMinClients+1)
	srv.polls.mu.Lock()
	p := srv.polls.cur
	srv.polls.mu.Unlock()
	end()
	srv.polls.mu.Lock()
	cur := srv.polls.cur
	srv.polls.mu.Unlock()
	if cur != nil {
		t.Fatal("a set is left after Serve returned")
	}
	select {
	case <-p.done:
	default:
		t.Fatal("the set's goroutine was not told to end")
	}
	if n := len(p.all()); n != 0 {
		t.Fatalf("%d clients left in the closed set", n)
	}
}
