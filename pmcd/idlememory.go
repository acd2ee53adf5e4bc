package pmcd

import (
	"runtime/debug"
	"sync"
	"time"
)

// Clients leave garbage behind: each connection's goroutine stack, its
// read and write buffers and the storage of its answers. The runtime
// keeps the freed pages resident until its scavenger returns them, which
// it does slowly and only above the heap's goal, so after a burst of
// clients pmcd stayed as large as under the burst (32 clients: 0.7 MiB
// more than once they were collected and returned). When the last client
// leaves, pmcd hands that memory back, at most once per idleFreeEvery so
// that clients which come and go cost a collection now and then, not one
// each: a collection of pmcd's heap takes about a millisecond of CPU, a
// tenth of a percent at most. The pages come back as faults on the next
// burst, so this is for a daemon that idles between bursts: cmd/pmcd turns
// it on (Server.FreeIdleMemory); a program that embeds a Server, tests
// included, does not pay a forced collection for it unasked.

// idleFreeEvery is the least time between two hand-backs.
const idleFreeEvery = time.Second

// idleFree schedules the hand-backs; its zero value is ready.
type idleFree struct {
	// every, when not zero, replaces idleFreeEvery (for tests).
	every     time.Duration
	mu        sync.Mutex
	last      time.Time   // when memory was last handed back
	scheduled *time.Timer // set while a hand-back is due
	// stopped is set by stop: no hand-back is scheduled after it, so
	// that none outlives the server's Close.
	stopped bool
}

// clientsGone is called when the last client has gone: memory is handed
// back now, or once idleFreeEvery has passed since the last time, if no
// client has come meanwhile (idle says whether none is connected).
func (f *idleFree) clientsGone(idle func() bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.scheduled != nil || f.stopped {
		return
	}
	every := f.every
	if every == 0 {
		every = idleFreeEvery
	}
	wait := max(every-time.Since(f.last), 0)
	f.scheduled = time.AfterFunc(wait, func() {
		f.mu.Lock()
		f.scheduled = nil
		stopped := f.stopped
		f.mu.Unlock()
		if stopped || !idle() {
			return // the next to leave schedules it again
		}
		debug.FreeOSMemory()
		f.mu.Lock()
		f.last = time.Now()
		f.mu.Unlock()
	})
}

// stop cancels a hand-back not yet begun, and any later one.
func (f *idleFree) stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopped = true
	if f.scheduled != nil {
		f.scheduled.Stop()
		f.scheduled = nil
	}
}
