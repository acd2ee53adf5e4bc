package pdu

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
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
		r, w := NewReader(client, DefaultTimeout), NewWriter(server)
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

// earlyStream is a stream whose kept read deadline fires when the test
// says, whatever the time: Read fails with os.ErrDeadlineExceeded while
// fires is positive, then reads data. It records the deadlines set.
type earlyStream struct {
	data  []byte
	fires int
	set   []time.Time
}

func (s *earlyStream) Read(p []byte) (int, error) {
	if s.fires > 0 {
		s.fires--
		return 0, os.ErrDeadlineExceeded
	}
	if len(s.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p, s.data)
	s.data = s.data[n:]
	return n, nil
}

func (s *earlyStream) SetReadDeadline(t time.Time) error {
	s.set = append(s.set, t)
	return nil
}

// TestKeepDeadlineNeverEarly: a kept deadline left by an earlier PDU
// fires before the current read's own; the read sets its own deadline
// and goes on. The stream decides when deadlines fire and the test
// compares the deadlines set, so nothing depends on how long anything
// takes: the Timeout, an hour, is never waited for.
func TestKeepDeadlineNeverEarly(t *testing.T) {
	const timeout = time.Hour
	pdu := mustPDU(&Error{}, 0)
	s := &earlyStream{data: pdu}
	r := NewReader(s, DefaultTimeout)
	r.Timeout, r.KeepDeadline = timeout, true
	if _, err := r.ReadPDU(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(s.set) != 1 {
		t.Fatalf("%d deadlines set for one PDU, want 1", len(s.set))
	}
	kept := s.set[0]
	// The deadline left behind lies within the slack of the next read's,
	// so it stays; the stream has it fire at once.
	s.data, s.fires = pdu, 1
	start := time.Now()
	got, err := r.ReadPDU(context.Background())
	if err != nil || !bytes.Equal(got, pdu) {
		t.Fatalf("a kept deadline fired early: %x, %v, want the PDU", got, err)
	}
	set := s.set[1:]
	if len(set) != 1 {
		t.Fatalf("deadlines set after the kept one fired: %v, want the read's own", set)
	}
	if own := set[0]; !own.After(kept) || own.Before(start.Add(timeout)) {
		t.Errorf("after the kept deadline %v fired, the read set %v, want its own Timeout from %v", kept, own, start)
	}
}

// TestKeepDeadlineIdleWait: a deadline kept from a PDU that had to wait
// for its body does not limit the wait for the next PDU to begin.
func TestKeepDeadlineIdleWait(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	defer server.Close()
	const timeout = 200 * time.Millisecond
	r := NewReader(client, DefaultTimeout)
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
	r := NewReader(client, DefaultTimeout)
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
