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
// ECONNABORTED many times: pmcd keeps its port, logs the trouble once
// per kind of outage, and serves the client waiting once accepts work
// again.
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
			if !strings.Contains(logged, "accepting clients again") {
				t.Errorf("recovery not logged:\n%s", logged)
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
