package series

import (
	"context"
	"net"
	"testing"
	"time"
)

// TestPipelineEndsOnCancel: a Redis that accepts and never answers does
// not hold a pipeline past its context's cancellation (pmproxy's
// shutdown waited for the two-minute round-trip bound before).
func TestPipelineEndsOnCancel(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	held := make(chan net.Conn, 1)
	go func() {
		c, err := l.Accept()
		if err == nil {
			held <- c // read nothing, answer nothing
		}
	}()
	rc := &rawConn{addr: l.Addr().String()}
	defer rc.close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := rc.pipeline(ctx, [][]string{{"PING"}})
		done <- err
	}()
	c := <-held
	defer c.Close()
	cancel()
	// A liveness bound well under rawTimeout, not a measure.
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("pipeline to a silent server succeeded")
		}
	case <-time.After(rawTimeout / 2):
		t.Fatal("pipeline still waiting after its context was cancelled")
	}
}
