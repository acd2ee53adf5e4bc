package pdu

import (
	"context"
	"net"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestIdleKeepsNoContext: a Reader and a Writer between calls hold no
// reference to the last call's context, whose parents (an HTTP request's
// in pmproxy) would otherwise live as long as an idle connection.
func TestIdleKeepsNoContext(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	r, w := NewReader(a, time.Minute), NewWriter(b)
	r.KeepDeadline, w.KeepDeadline = true, true
	var collected atomic.Int32
	if err := exchangeTracked(r, w, &collected); err != nil {
		t.Fatal(err)
	}
	// Cleanups run on their own goroutine after a collection, which a
	// loaded machine may not schedule at once: collect and wait, a
	// bounded number of times, timing nothing.
	for tries := 0; tries < 600 && collected.Load() == 0; tries++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if collected.Load() == 0 {
		t.Error("the last call's context is still held")
	}
	runtime.KeepAlive(r)
	runtime.KeepAlive(w)
}

type ctxKey struct{ _ [16]byte }

// exchangeTracked sends and reads one PDU under a context whose value is
// counted in collected once the collector has freed it. The context has
// no timer: a stopped timer may stay in the runtime's timer heap, and
// its context with it, for a while after.
//
//go:noinline
func exchangeTracked(r *Reader, w *Writer, collected *atomic.Int32) error {
	key := &ctxKey{}
	runtime.AddCleanup(key, func(n *atomic.Int32) { n.Add(1) }, collected)
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), key, 1))
	defer cancel()
	pdu := mustPDU(&Error{Code: -12345}, 0)
	done := make(chan error, 1)
	go func() { done <- w.WritePDU(ctx, pdu) }()
	if _, err := r.ReadPDU(ctx); err != nil {
		return err
	}
	return <-done
}
