package trace

import (
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// TestArrivedReader: with RequestTimeout negative (PCP_TRACE_REQTIMEOUT=0)
// a read takes what has already arrived and times out at once when
// nothing has, as libpcp_trace's select with a zero wait; a deadline
// could not, since Go fails a read past its deadline without trying it.
func TestArrivedReader(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- c
	}()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	peer, ok := <-accepted
	if !ok {
		t.Fatal("no connection accepted")
	}
	defer peer.Close()
	c := &Client{conn: conn, opts: Options{RequestTimeout: -1}}
	r, ok := c.arrived()
	if !ok {
		t.Fatal("no reader of what has arrived on a TCP connection")
	}
	buf := make([]byte, AckLen)
	start := time.Now()
	if n, err := r.Read(buf); n != 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("nothing sent: read %d, %v; want a timeout", n, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Logf("the read that found nothing took %v", d) // a loaded machine, not a wait
	}
	want := AppendAck(nil, 1, 7)
	if _, err := peer.Write(want); err != nil {
		t.Fatal(err)
	}
	// The bytes reach the socket soon after the write; until then each
	// read times out rather than waits.
	var got []byte
	for deadline := time.Now().Add(time.Minute); len(got) < len(want) && time.Now().Before(deadline); {
		n, err := r.Read(buf[len(got):])
		got = buf[:len(got)+n]
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatal(err)
		}
		if n == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	if string(got) != string(want) {
		t.Fatalf("read % x, want % x", got, want)
	}
	peer.Close()
	for deadline := time.Now().Add(time.Minute); ; {
		_, err := r.Read(buf)
		if err == io.EOF {
			break
		}
		if !errors.Is(err, os.ErrDeadlineExceeded) || time.Now().After(deadline) {
			t.Fatalf("after the peer closed: %v, want EOF", err)
		}
		time.Sleep(time.Millisecond)
	}
	if _, ok := (&Client{conn: conn, opts: Options{RequestTimeout: time.Second}}).arrived(); ok {
		t.Error("a positive RequestTimeout waits with a deadline, not by polling")
	}
}
