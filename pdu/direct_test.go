package pdu

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// streamPairs are the kinds of stream Direct is used on: a TCP
// connection and a pipe.
func streamPairs(t *testing.T) map[string][2]Stream {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := l.Accept()
		accepted <- c
	}()
	a, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	b := <-accepted
	if b == nil {
		t.Fatal("no connection accepted")
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(); b.Close(); pr.Close(); pw.Close() })
	return map[string][2]Stream{
		"tcp":  {a.(Stream), b.(Stream)},
		"pipe": {pr, pw},
	}
}

// TestDirect: PDUs of every size, including ones larger than the
// kernel's buffers (so that writes wait), go through Direct streams
// whole and in order; timeouts, the end of the stream and closing work
// as on the plain streams.
func TestDirect(t *testing.T) {
	for name, pair := range streamPairs(t) {
		t.Run(name, func(t *testing.T) {
			rs, ws := Direct(pair[0]), Direct(pair[1])
			if runtime.GOOS == "linux" && !isDirect(rs) {
				t.Fatalf("Direct(%T) is %T, want the raw stream", pair[0], rs)
			}
			r, w := NewReader(rs, DefaultTimeout), NewWriter(ws)
			r.Timeout, w.Timeout = time.Minute, time.Minute
			r.KeepDeadline, w.KeepDeadline = true, true
			var pdus [][]byte
			for _, n := range []int{0, 1, 100, 10_000, 1_000_000} {
				pdus = append(pdus, mustPDU(&Text{Ident: uint32(n), Text: string(bytes.Repeat([]byte{byte(n%26 + 65)}, n))}, int32(n)))
			}
			errc := make(chan error, 1)
			go func() {
				for _, p := range pdus {
					if err := w.WritePDU(context.Background(), p); err != nil {
						errc <- err
						return
					}
				}
				errc <- nil
			}()
			for i, want := range pdus {
				got, err := r.ReadPDU(context.Background())
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("PDU %d (%d bytes): %d bytes, %v", i, len(want), len(got), err)
				}
			}
			if err := <-errc; err != nil {
				t.Fatal(err)
			}

			r.Timeout = 30 * time.Millisecond
			if _, err := r.ReadPDU(context.Background()); !errors.Is(err, pcp.ErrTimeout) {
				t.Errorf("nothing sent: %v, want pcp.ErrTimeout", err)
			}
			r.Timeout = time.Minute
			// Closing the writing end ends the stream.
			if c, ok := pair[1].(io.Closer); ok {
				c.Close()
			}
			if _, err := r.ReadPDU(context.Background()); err != io.EOF {
				t.Errorf("after the writer closed: %v, want io.EOF", err)
			}
		})
	}
}

// TestDirectCloseInterrupts: closing the stream ends a read waiting on a
// Direct stream, as it does a plain one.
func TestDirectCloseInterrupts(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	r := NewReader(Direct(pr), DefaultTimeout)
	r.Timeout = 0
	errc := make(chan error, 1)
	go func() {
		_, err := r.ReadPDU(context.Background())
		errc <- err
	}()
	time.Sleep(20 * time.Millisecond)
	pr.Close()
	if err := <-errc; err == nil || errors.Is(err, pcp.ErrTimeout) {
		t.Errorf("read of a closed pipe: %v, want a failure", err)
	}
}

// TestDirectBlockingLeftAlone: a descriptor in blocking mode, which raw
// calls would block on unseen, is returned as it is.
func TestDirectBlockingLeftAlone(t *testing.T) {
	// A raw pipe, blocking as pipe(2) makes it, whose descriptors only
	// the *os.Files below own. Taking an *os.File's Fd for a second
	// os.NewFile would give the descriptor two owners, and the second's
	// Close (or finalizer) would close whatever later reused the number.
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	blocking := os.NewFile(uintptr(fds[0]), "blocking")
	defer blocking.Close()
	defer os.NewFile(uintptr(fds[1]), "writer").Close()
	if s := Direct(blocking); s != Stream(blocking) {
		t.Errorf("Direct of a blocking descriptor is %T, want it unchanged", s)
	}
}
