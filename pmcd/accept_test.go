package pmcd

import (
	"context"
	"log"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// failingListener fails its first fails accepts with err, as a listener
// does when the process is out of descriptors, then accepts from the
// real listener beneath.
type failingListener struct {
	net.Listener
	mu    sync.Mutex
	fails int
	err   error
}

func (l *failingListener) Accept() (net.Conn, error) {
	l.mu.Lock()
	if l.fails > 0 {
		l.fails--
		l.mu.Unlock()
		return nil, l.err
	}
	l.mu.Unlock()
	return l.Listener.Accept()
}

// TestAcceptErrorsRetried has the listener fail with EMFILE, ENFILE and
// ECONNABORTED many times: pmcd keeps its port, logs the trouble and
// the recovery once, and serves the client waiting once accepts work
// again. TestAcceptFailuresFlapping has accepts fail and succeed by
// turns, as when descriptors come free one at a time.
func TestAcceptErrorsRetried(t *testing.T) {
	t.Parallel()
	for _, errno := range []syscall.Errno{syscall.EMFILE, syscall.ENFILE, syscall.ECONNABORTED} {
		t.Run(errno.Error(), func(t *testing.T) {
			t.Parallel()
			inner, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			l := &failingListener{Listener: inner, fails: 6,
				err: &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", errno)}}
			var buf lockedBuffer
			srv := &Server{PMNS: testTree(t), Log: log.New(&buf, "", 0)}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- srv.Serve(ctx, l) }()
			_, r, w := dial(t, inner.Addr().String())
			m := roundTrip(t, r, w, &pdu.PMNSNames{Names: []string{"kernel.all.load"}})
			if ids, ok := m.(*pdu.PMNSIDs); !ok || len(ids.PMIDs) != 1 || ids.PMIDs[0] != pcp.NewPMID(60, 2, 0) {
				t.Errorf("after the accept errors, a lookup gave %+v", m)
			}
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Serve: %v", err)
			}
			srv.Close()
			logged := buf.String()
			if n := strings.Count(logged, errno.Error()); n != 1 {
				t.Errorf("%d lines about %v, want 1:\n%s", n, errno, logged)
			}
			if n := strings.Count(logged, "accepting clients again"); n != 1 {
				t.Errorf("recovery logged %d times, want 1:\n%s", n, logged)
			}
		})
	}
}

// TestAcceptBackoff: the wait between failed accepts doubles from 5 ms
// to at most a second, as net/http's does.
func TestAcceptBackoff(t *testing.T) {
	t.Parallel()
	var got []string
	d := time.Duration(0)
	for range 10 {
		d = acceptBackoff(d)
		got = append(got, d.String())
	}
	if s := strings.Join(got, " "); s != "5ms 10ms 20ms 40ms 80ms 160ms 320ms 640ms 1s 1s" {
		t.Errorf("backoff %s", s)
	}
}

// flappingListener fails every other accept.
type flappingListener struct {
	net.Listener
	mu sync.Mutex
	n  int
}

func (l *flappingListener) Accept() (net.Conn, error) {
	l.mu.Lock()
	l.n++
	fail := l.n%2 == 1
	l.mu.Unlock()
	if fail {
		return nil, &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.EMFILE)}
	}
	return l.Listener.Accept()
}

func TestAcceptFailuresFlapping(t *testing.T) {
	t.Parallel()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var buf lockedBuffer
	// The clock stands still: all ten spells of failure fall in one
	// minute.
	frozen := time.Unix(1e9, 0)
	srv := &Server{PMNS: testTree(t), Log: log.New(&buf, "", 0), logClock: func() time.Time { return frozen }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, &flappingListener{Listener: inner}) }()
	for range 10 {
		_, r, w := dial(t, inner.Addr().String())
		roundTrip(t, r, w, &pdu.PMNSNames{Names: []string{"kernel.all.load"}})
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	srv.Close()
	// Ten spells of failure in one minute: one line for the first and
	// one for its end.
	if n := strings.Count(buf.String(), "\n"); n != 2 {
		t.Errorf("%d lines logged, want 2:\n%s", n, buf.String())
	}
}
