package trace_test

import (
	"context"
	"net"
	"sync"
	"testing"

	"github.com/gopcp/gopcp/trace"
)

// TestPointAllocs checks that a point costs no allocation once connected,
// in either protocol, so that tracing adds nothing to the collector's
// work.
func TestPointAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage counters allocate")
	}
	for _, async := range []bool{false, true} {
		port := ackingSink(t)
		c, err := trace.New(trace.Options{Host: "127.0.0.1", Port: port, Async: async})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		if err := c.Point(ctx, "warm"); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(200, func() { c.Point(ctx, "p") }); n != 0 {
			t.Errorf("async=%v: %v allocations per point", async, n)
		}
		c.Close()
	}
}

// ackingSink is an agent that allocates nothing per PDU: it reads into
// one buffer and acknowledges synchronous data with a prepared ACK.
func ackingSink(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		conn.Write(trace.AppendAck(nil, 1, trace.Version))
		ack := trace.AppendAck(nil, 1, int32(trace.TypePoint))
		buf := make([]byte, trace.MaxPDULen)
		for {
			_, pdu, err := trace.ReadPDU(conn, buf)
			if err != nil {
				return
			}
			if pdu[trace.HeaderLen+3]&(1<<7) != 0 {
				conn.Write(ack)
			}
		}
	})
	return ln.Addr().(*net.TCPAddr).Port
}
