package pmcd

import (
	"sync/atomic"
	"time"
)

// agentLock is an in-process agent's lock (inProc.acquire): whoever
// finds it free takes it, and a caller waiting for it can give up when
// pmcd gives up on the agent.
//
// It is not, as a rule, handed from one holder to the next. A lock that
// is (a buffered channel of one, which it was) belongs, once let go, to
// a waiter that is not running yet: under 32 clients on two Ps, 2.7% of
// fetches waited for it, 0.73 ms each on average (runtime/trace, 2 s at
// load 12), because the waiter it went to was on a thread the kernel had
// just preempted in favour of the client the releaser woke, and every
// other fetch waited behind it for that thread's turn. Here a waiter is
// only woken to try again, and a goroutine already running takes the
// lock meanwhile.
//
// That alone lets running goroutines take it turn after turn while a
// waiter loses every time (worst waits of 0.3-0.8 s were seen with four
// goroutines in tight loops on two Ps), so, as sync.Mutex does, a waiter
// that has waited longer than agentLockStarve says so (starving), and
// unlock then hands the lock, still held, to a starving waiter parked
// for it, if there is one, rather than letting it go.
//
// Each hold has a number, which lock returns and unlock takes: a release
// that is not the hold in force (a second one by the same caller, or one
// that comes after the hold was passed on) does nothing, so that it
// cannot free, or hand to a starving waiter, a hold another caller has.
type agentLock struct {
	// held is the number of the hold in force, 0 while the lock is
	// free.
	held atomic.Uint64
	// holds numbers the holds.
	holds   atomic.Uint64
	waiters atomic.Int32
	// starving counts the waiters that have waited longer than
	// agentLockStarve.
	starving atomic.Int32
	// wake holds at most one wake-up for the waiters, sent by unlock
	// while any wait.
	wake chan struct{}
	// handoff passes the lock, held under the number sent, from unlock
	// to a starving waiter parked on it. Unbuffered: a send succeeds
	// only when one is parked, and then it has the lock.
	handoff chan uint64
	// now, when set, replaces time.Now (for tests).
	now func() time.Time
}

// agentLockStarve is how long a waiter loses to running goroutines before
// unlock hands it the lock: sync.Mutex's 1 ms.
const agentLockStarve = time.Millisecond

// newAgentLock makes a free lock.
func newAgentLock() agentLock {
	return agentLock{wake: make(chan struct{}, 1), handoff: make(chan uint64)}
}

// newHold numbers a hold; never 0 (it would take 2^64 holds to wrap).
func (l *agentLock) newHold() uint64 {
	for {
		if h := l.holds.Add(1); h != 0 {
			return h
		}
	}
}

func (l *agentLock) clock() time.Time {
	if l.now != nil {
		return l.now()
	}
	return time.Now()
}

// lock takes l and returns the hold's number, or gives up, returning 0,
// once gone is closed or timeout fires (either may be nil).
func (l *agentLock) lock(gone <-chan struct{}, timeout <-chan time.Time) uint64 {
	h := l.newHold()
	// The fast path stays open while a waiter starves: a newcomer that
	// passed a free lock by would wait for a wake-up that may not come.
	if l.held.CompareAndSwap(0, h) {
		return h
	}
	// Read before the waiter is counted, so that a test that sees the
	// count knows when it started.
	start := l.clock()
	// Counted before the second try: an unlock that comes after that
	// try fails sees the count and sends a wake-up.
	l.waiters.Add(1)
	defer l.waiters.Add(-1)
	var handoff chan uint64 // nil, never ready, until starving
	defer func() {
		if handoff != nil {
			l.starving.Add(-1)
		}
	}()
	for {
		if l.held.CompareAndSwap(0, h) {
			return h
		}
		if handoff == nil && l.clock().Sub(start) > agentLockStarve {
			// Counted before parking: an unlock that sees the count
			// while this waiter is not parked yet finds no receiver,
			// and lets the lock go as usual.
			l.starving.Add(1)
			handoff = l.handoff
		}
		select {
		case <-l.wake:
		case handed := <-handoff:
			// Handed over held, under a number of its own: it is this
			// waiter's.
			return handed
		case <-gone:
			return 0
		case <-timeout:
			return 0
		}
	}
}

// unlock ends hold h of l: it hands l to a starving waiter parked for
// it, if there is one, under a new number; otherwise it lets l go and
// wakes a waiter, if any, to try again. A release of a hold not in force
// (0, one already ended, one l was passed on from) does nothing.
func (l *agentLock) unlock(h uint64) {
	if h == 0 {
		return
	}
	if l.starving.Load() > 0 {
		// Renumbered first, so that h, ended here, cannot end the
		// waiter's hold.
		next := l.newHold()
		if !l.held.CompareAndSwap(h, next) {
			return
		}
		select {
		case l.handoff <- next:
			// Still held, now by the starving waiter: a waiter
			// parked in select that took this cannot have taken gone
			// or its timeout instead.
			return
		default:
			// None parked at this moment.
		}
		h = next
	}
	if !l.held.CompareAndSwap(h, 0) {
		return
	}
	if l.waiters.Load() > 0 {
		select {
		case l.wake <- struct{}{}:
		default:
			// A wake-up is already there for a waiter to take.
		}
	}
}
