package pmcd

import (
	"bytes"
	"context"
	"log"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a log destination several goroutines write.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// serveUntil serves srv on a loopback port while probe runs, then stops
// it and waits for every client to be finished with.
func serveUntil(t *testing.T, srv *Server, clients int32, probe func(addr string)) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, l) }()
	probe(l.Addr().String())
	// Every client the probe made is seen to the end before the
	// shutdown, whose own errors would be something else.
	for {
		srv.numMu.Lock()
		busy := len(srv.nums)
		srv.numMu.Unlock()
		if busy == 0 && srv.clientSeq.Load() >= clients {
			break
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	srv.Close()
}

// TestProbesNotLogged connects and goes away before sending a PDU, as
// port scanners and health checks do: PCP's pmcd logs nothing for that,
// and neither may this one. A client that sends garbage in place of the
// handshake is logged.
func TestProbesNotLogged(t *testing.T) {
	t.Parallel()
	probes := []struct {
		name  string
		probe func(t *testing.T, addr string)
	}{
		{"close at once", func(t *testing.T, addr string) {
			c := dialRaw(t, addr)
			c.Close()
		}},
		{"close after the greeting", func(t *testing.T, addr string) {
			c := dialRaw(t, addr)
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			c.Read(make([]byte, 12))
			c.Close()
		}},
		{"reset", func(t *testing.T, addr string) {
			c := dialRaw(t, addr)
			c.(*net.TCPConn).SetLinger(0)
			c.Close()
		}},
	}
	for _, p := range probes {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			var buf lockedBuffer
			srv := &Server{PMNS: testTree(t), Log: log.New(&buf, "", 0)}
			serveUntil(t, srv, 50, func(addr string) {
				for i := 0; i < 50; i++ {
					p.probe(t, addr)
				}
			})
			if buf.String() != "" {
				t.Errorf("probes logged:\n%s", buf.String())
			}
		})
	}
	t.Run("garbage is logged", func(t *testing.T) {
		t.Parallel()
		var buf lockedBuffer
		srv := &Server{PMNS: testTree(t), Log: log.New(&buf, "", 0)}
		serveUntil(t, srv, 1, func(addr string) {
			c := dialRaw(t, addr)
			c.Write([]byte("GET / HTTP/1.0\r\n\r\n"))
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			for _, err := c.Read(make([]byte, 64)); err == nil; _, err = c.Read(make([]byte, 64)) {
			}
			c.Close()
		})
		if !strings.Contains(buf.String(), "handshake") {
			t.Errorf("garbage handshake not logged:\n%s", buf.String())
		}
	})
}

func dialRaw(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
