package trace_test

import (
	"context"
	"errors"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/trace"
)

// TestConcurrent sends synchronous points from many goroutines at once:
// each is acknowledged, and the agent receives every PDU whole.
func TestConcurrent(t *testing.T) {
	r := newRecorder(t)
	c, err := trace.New(trace.Options{Host: "127.0.0.1", Port: r.port()})
	if err != nil {
		t.Fatal(err)
	}
	const workers, each = 8, 100
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := range workers {
		wg.Go(func() {
			for range each {
				if w%2 == 0 {
					errs <- c.Point(context.Background(), "p")
				} else {
					errs <- c.Start("tx").End(context.Background())
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	c.Close()
	if got, want := len(r.take()), workers*each*28; got != want {
		t.Errorf("%d bytes received, want %d", got, want)
	}
}

// TestContext checks that a cancelled context stops a call and that a
// deadline bounds the wait for an acknowledgement that never comes. The
// agent acknowledges the first point, so that the connection is made
// before the deadline is set: the deadline bounds only the wait, not a
// connect a loaded machine may be slow to schedule.
func TestContext(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Go(func() {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		conn.Write(trace.AppendAck(nil, 1, trace.Version))
		buf := make([]byte, 4096)
		if _, _, err := trace.ReadPDU(conn, buf); err != nil {
			return
		}
		conn.Write(trace.AppendAck(nil, 1, int32(trace.TypePoint)))
		for { // reads, never acknowledges again
			if _, err := conn.Read(buf); err != nil {
				return
			}
		}
	})
	c, _ := trace.New(trace.Options{Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port})
	defer c.Close()
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Point(done, "p"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if err := c.Point(context.Background(), "p"); err != nil {
		t.Fatalf("first point: %v", err)
	}
	ctx, cancel2 := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel2()
	if err := c.Point(ctx, "p"); !errors.Is(err, trace.ErrTimeout) {
		t.Errorf("no acknowledgement: %v, want %v", err, trace.ErrTimeout)
	}
}

// TestReconnect takes the agent away and brings it back on the same
// port: meanwhile synchronous calls succeed with their data dropped, and
// once the back-off allows, data flow again.
func TestReconnect(t *testing.T) {
	// The port must still be ours when the agent comes back: a ":0" port
	// closed again may be taken meanwhile by any connection on the
	// machine, so it is one of testbed's private ports, held to the end.
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Fatal(err)
	}
	r1 := &recorderOn{ln: ln}
	r1.start()
	c, _ := trace.New(trace.Options{Host: "127.0.0.1", Port: port, Reconnect: []time.Duration{10 * time.Millisecond}})
	defer c.Close()
	ctx := context.Background()
	if err := c.Point(ctx, "before"); err != nil {
		t.Fatal(err)
	}
	r1.stop() // the agent goes, and its connections with it
	for i := 0; i < 3; i++ {
		if err := c.Point(ctx, "away"); err != nil {
			t.Fatalf("a synchronous call failed while the agent was away: %v", err)
		}
	}
	if c.Dropped() == 0 {
		t.Fatal("nothing dropped while the agent was away")
	}
	ln, err = net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Fatalf("the agent's port again: %v", err)
	}
	r2 := &recorderOn{ln: ln}
	r2.start()
	defer r2.stop()
	// The back-off is 10 ms; the test's own timeout bounds the wait.
	for r2.got() == 0 {
		c.Point(ctx, "back")
		time.Sleep(10 * time.Millisecond)
	}
}

// recorderOn counts PDUs on a given listener, acknowledging them.
type recorderOn struct {
	ln    net.Listener
	mu    sync.Mutex
	n     int
	conns []net.Conn
	wg    sync.WaitGroup
}

func (r *recorderOn) start() {
	r.wg.Go(func() {
		for {
			conn, err := r.ln.Accept()
			if err != nil {
				return
			}
			r.mu.Lock()
			r.conns = append(r.conns, conn)
			r.mu.Unlock()
			r.wg.Go(func() {
				defer conn.Close()
				conn.Write(trace.AppendAck(nil, 1, trace.Version))
				buf := make([]byte, trace.MaxPDULen)
				for {
					_, pdu, err := trace.ReadPDU(conn, buf)
					if err != nil {
						return
					}
					d, err := trace.DecodeData(pdu)
					if err != nil {
						return
					}
					r.mu.Lock()
					r.n++
					r.mu.Unlock()
					conn.Write(trace.AppendAck(nil, 1, int32(d.Type)))
				}
			})
		}
	})
}

func (r *recorderOn) got() int { r.mu.Lock(); defer r.mu.Unlock(); return r.n }

func (r *recorderOn) stop() {
	r.ln.Close()
	r.mu.Lock()
	for _, c := range r.conns {
		c.Close()
	}
	r.mu.Unlock()
	r.wg.Wait()
}
