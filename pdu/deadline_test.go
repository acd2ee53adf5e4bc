package pdu

import (
	"bytes"
	"context"
	"errors"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// deadlineConn counts the deadlines set on a connection.
type deadlineConn struct {
	net.Conn
	reads, writes atomic.Int32
}

func (c *deadlineConn) SetReadDeadline(t time.Time) error {
	c.reads.Add(1)
	return c.Conn.SetReadDeadline(t)
}

func (c *deadlineConn) SetWriteDeadline(t time.Time) error {
	c.writes.Add(1)
	return c.Conn.SetWriteDeadline(t)
}

// TestKeepDeadlineFewSets: a Reader and Writer keeping their deadline
// set it about once for a run of PDUs that each wait, where the others
// set and clear it for every PDU.
func TestKeepDeadlineFewSets(t *testing.T) {
	for _, keep := range []bool{false, true} {
		a, b := net.Pipe()
		client, server := &deadlineConn{Conn: a}, &deadlineConn{Conn: b}
		r, w := NewReader(client), NewWriter(server)
		r.Timeout, w.Timeout = time.Minute, time.Minute
		r.KeepDeadline, w.KeepDeadline = keep, keep
		pdu := mustPDU(&Error{Code: -12345}, 0)
		const n = 50
		done := make(chan error, 1)
		go func() {
			for range n {
				if err := w.WritePDU(context.Background(), pdu); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
		for i := range n {
			got, err := r.ReadPDU(context.Background())
			if err != nil || !bytes.Equal(got, pdu) {
				t.Fatalf("keep %v, PDU %d: %x, %v", keep, i, got, err)
			}
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		reads, writes := client.reads.Load(), server.writes.Load()
		if keep && (reads > 2 || writes > 2) {
			t.Errorf("kept deadlines set %d times reading and %d writing %d PDUs", reads, writes, n)
		}
		if !keep && (reads < n || writes != 2*n) {
			t.Errorf("deadlines set %d times reading and %d writing %d PDUs, want each set and cleared", reads, writes, n)
		}
		a.Close()
		b.Close()
	}
}

// TestKeepDeadlineNeverEarly: a kept deadline left by an earlier PDU
// fires before the current read's own; the read goes on until its own
// Timeout has passed.
func TestKeepDeadlineNeverEarly(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	defer server.Close()
	const timeout = 200 * time.Millisecond
	r := NewReader(client)
	r.Timeout, r.KeepDeadline = timeout, true
	pdu := mustPDU(&Error{}, 0)
	go server.Write(pdu)
	if _, err := r.ReadPDU(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The deadline left behind now lies within the slack of the next
	// read's, so it stays and fires early.
	time.Sleep(timeout / 4)
	start := time.Now()
	_, err := r.ReadPDU(context.Background())
	if !errors.Is(err, pcp.ErrTimeout) {
		t.Fatalf("nothing sent: %v, want pcp.ErrTimeout", err)
	}
	if took := time.Since(start); took < timeout {
		t.Errorf("timed out after %v, before the Timeout of %v", took, timeout)
	}
	// The reader still works, and a PDU that arrives late but within
	// the Timeout of its read is read.
	go func() {
		time.Sleep(timeout / 2)
		server.Write(pdu)
	}()
	if got, err := r.ReadPDU(context.Background()); err != nil || !bytes.Equal(got, pdu) {
		t.Errorf("after a timeout: %x, %v", got, err)
	}
}

// TestKeepDeadlineIdleWait: a deadline kept from a PDU that had to wait
// for its body does not limit the wait for the next PDU to begin.
func TestKeepDeadlineIdleWait(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	defer server.Close()
	const timeout = 200 * time.Millisecond
	r := NewReader(client)
	r.Timeout, r.IdleWait, r.KeepDeadline = timeout, true, true
	pdu := mustPDU(&Error{Code: -1}, 0)
	go func() {
		server.Write(pdu[:4])
		time.Sleep(time.Millisecond)
		server.Write(pdu[4:])
		time.Sleep(3 * timeout) // idle for several Timeouts
		server.Write(pdu)
	}()
	for i := range 2 {
		if got, err := r.ReadPDU(context.Background()); err != nil || !bytes.Equal(got, pdu) {
			t.Fatalf("PDU %d: %x, %v", i, got, err)
		}
	}
}

// TestKeepDeadlineCancel: cancelling a read leaves a past deadline on the
// stream, which the next read replaces.
func TestKeepDeadlineCancel(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	defer server.Close()
	r := NewReader(client)
	r.Timeout, r.KeepDeadline = time.Minute, true
	w := NewWriter(server)
	w.Timeout, w.KeepDeadline = 50*time.Millisecond, true
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	if _, err := r.ReadPDU(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v, want context.Canceled", err)
	}
	pdu := mustPDU(&Error{}, 0)
	go w.WritePDU(context.Background(), pdu)
	if got, err := r.ReadPDU(context.Background()); err != nil || !bytes.Equal(got, pdu) {
		t.Errorf("after the cancellation: %x, %v", got, err)
	}
	// A kept write deadline still times a write nobody reads.
	if err := w.WritePDU(context.Background(), pdu); !errors.Is(err, pcp.ErrTimeout) {
		t.Errorf("nobody reading: %v, want pcp.ErrTimeout", err)
	}
}
