package pdu

import (
	"context"
	"errors"
	"os"
	"sync"
	"time"
)

// A deadline is one direction's deadline on a stream, as a Reader or
// Writer manages it for one call.
//
// Changing a stream's deadline changes a timer in Go's runtime, and
// setting one on a stream that had none usually wakes the goroutine
// scheduler's network poller, which costs more than the read or write of
// a small PDU. So a deadline is only set where an I/O call may block, and
// with keep (the Reader's and Writer's KeepDeadline) the last one set
// stays on the stream between calls and is left alone while it lies
// within slack before the one wanted: it may then fire early, which
// costs one retry with the exact deadline, but a busy stream changes its
// timer once per slack instead of twice per PDU.
type deadline struct {
	rd     readDeadliner  // the stream, for a Reader
	wd     writeDeadliner // or for a Writer
	armed  *time.Time     // the deadline on the stream now, kept by the owner
	keep   bool
	slack  time.Duration
	target time.Time       // when the call must give up; zero: never
	ctx    context.Context // its cancellation must not be overwritten

	onCancel   func()         // cancel, bound once
	cancelling sync.WaitGroup // counts a watch whose cancel may yet run
}

// set sets t on the stream. (Funcs bound to the stream would cost an
// allocation per call.) An error means a closed stream, which the I/O
// call reports.
func (d *deadline) set(t time.Time) {
	if d.rd != nil {
		d.rd.SetReadDeadline(t)
	} else {
		d.wd.SetWriteDeadline(t)
	}
}

// arm makes the stream's deadline target, or one up to slack before it
// when keeping. It is called before each I/O call that may block.
func (d *deadline) arm() {
	a := *d.armed
	if a.Equal(d.target) {
		return
	}
	if d.keep && !a.IsZero() && !d.target.IsZero() && !a.After(d.target) && a.After(d.target.Add(-d.slack)) {
		return
	}
	d.put(d.target)
}

// put sets t on the stream. A cancellation that fired before the new
// deadline replaced its past one would be lost, so it is restored.
func (d *deadline) put(t time.Time) {
	d.set(t)
	*d.armed = t
	if d.ctx.Done() != nil && d.ctx.Err() != nil {
		d.set(longAgo())
		*d.armed = longAgo()
	}
}

// early reports whether err is a kept deadline firing before the call's
// own, and if so sets the exact one, so that the caller goes on.
func (d *deadline) early(err error) bool {
	if !d.keep || !errors.Is(err, os.ErrDeadlineExceeded) || d.ctx.Err() != nil {
		return false
	}
	if !d.target.IsZero() && !time.Now().Before(d.target) {
		return false
	}
	d.put(d.target)
	return true
}

// done ends the call: without keep, the stream is left with no deadline.
func (d *deadline) done() {
	if !d.keep && !d.armed.IsZero() {
		d.set(time.Time{})
		*d.armed = time.Time{}
	}
	// The call's context (and the chain of its parents) is not kept alive
	// by an idle Reader or Writer.
	d.ctx = nil
}

// init readies d for a call under ctx, keeping what it has set up once
// (onCancel) and the WaitGroup, which is idle between calls.
func (d *deadline) init(ctx context.Context, keep bool, slack time.Duration, armed *time.Time) {
	d.ctx, d.keep, d.slack, d.armed, d.target = ctx, keep, slack, armed, time.Time{}
}

// watch interrupts the stream's I/O when ctx is cancelled, by setting a
// past deadline, until unwatch is called with what it returns. The
// callback is made once per Reader or Writer, not per call.
func (d *deadline) watch() (stop func() bool) {
	if d.onCancel == nil {
		d.onCancel = d.cancel
	}
	d.cancelling.Add(1)
	return context.AfterFunc(d.ctx, d.onCancel)
}

func (d *deadline) cancel() {
	d.set(longAgo())
	d.cancelling.Done()
}

// unwatch ends watch; it waits for a cancellation in progress, so that its
// past deadline cannot outlive the call unnoticed.
func (d *deadline) unwatch(stop func() bool) {
	if stop() {
		d.cancelling.Done()
		return
	}
	d.cancelling.Wait()
	*d.armed = longAgo()
}
