package pmcd

import (
	"sync/atomic"
	"time"
)

// agentLock is an in-process agent's lock (inProc.acquire): whoever
// finds it free takes it, and a caller waiting for it can give up when
// pmcd gives up on the agent.
//
// It is not handed from one holder to the next. A lock that is (a
// buffered channel of one, which it was) belongs, once let go, to a
// waiter that is not running yet: under 32 clients on two Ps, 2.7% of
// fetches waited for it, 0.73 ms each on average (runtime/trace, 2 s at
// load 12), because the waiter it went to was on a thread the kernel had
// just preempted in favour of the client the releaser woke, and every
// other fetch waited behind it for that thread's turn. Here a waiter is
// only woken to try again, and a goroutine already running takes the
// lock meanwhile.
type agentLock struct {
	held    atomic.Bool
	waiters atomic.Int32
	// wake holds at most one wake-up for the waiters, sent by unlock
	// while any wait.
	wake chan struct{}
}

// newAgentLock makes a free lock.
func newAgentLock() agentLock { return agentLock{wake: make(chan struct{}, 1)} }

// lock takes l, or gives up, returning false, once gone is closed or
// timeout fires (either may be nil).
func (l *agentLock) lock(gone <-chan struct{}, timeout <-chan time.Time) bool {
	if l.held.CompareAndSwap(false, true) {
		return true
	}
	// Counted before the second try: an unlock that comes after that
	// try fails sees the count and sends a wake-up.
	l.waiters.Add(1)
	defer l.waiters.Add(-1)
	for {
		if l.held.CompareAndSwap(false, true) {
			return true
		}
		select {
		case <-l.wake:
		case <-gone:
			return false
		case <-timeout:
			return false
		}
	}
}

// unlock lets l go and wakes a waiter, if any, to try again. Letting go
// of a free lock does nothing more.
func (l *agentLock) unlock() {
	l.held.Store(false)
	if l.waiters.Load() > 0 {
		select {
		case l.wake <- struct{}{}:
		default:
			// A wake-up is already there for a waiter to take.
		}
	}
}
