package pmcd

import (
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestAgentLockExcludes has goroutines add to a plain counter under the
// lock: every addition counts (and the race detector sees no race).
func TestAgentLockExcludes(t *testing.T) {
	l := newAgentLock()
	n := 0
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 2000 {
				if !l.lock(nil, nil) {
					t.Error("lock failed with nothing to give up on")
					return
				}
				n++
				l.unlock()
			}
		})
	}
	wg.Wait()
	if n != 8*2000 {
		t.Fatalf("counter %d, want %d", n, 8*2000)
	}
}

// TestAgentLockGivesUp: a waiter fails once gone closes, and once its
// timeout fires, without taking the lock; the holder's unlock then frees
// it for the next caller.
func TestAgentLockGivesUp(t *testing.T) {
	l := newAgentLock()
	if !l.lock(nil, nil) {
		t.Fatal("a free lock was not taken")
	}
	gone := make(chan struct{})
	got := make(chan bool)
	go func() { got <- l.lock(gone, nil) }()
	waitFor(t, "a waiter", func() (bool, string) { return l.waiters.Load() == 1, "" })
	close(gone)
	if <-got {
		t.Fatal("a waiter took a held lock once gone closed")
	}
	timer := time.NewTimer(time.Millisecond)
	defer timer.Stop()
	if l.lock(nil, timer.C) {
		t.Fatal("a held lock was taken after the timeout")
	}
	if n := l.waiters.Load(); n != 0 {
		t.Fatalf("%d waiters left counted", n)
	}
	l.unlock()
	if !l.lock(gone, nil) {
		t.Fatal("a free lock was not taken, gone closed or not")
	}
	l.unlock()
	// Letting go of a free lock does nothing more.
	l.unlock()
	if !l.lock(nil, nil) {
		t.Fatal("a lock let go twice was not taken")
	}
}

// TestAgentLockWakesWaiters: callers blocked behind a holder all get the
// lock in turn once it is let go, whoever takes it first.
func TestAgentLockWakesWaiters(t *testing.T) {
	l := newAgentLock()
	l.lock(nil, nil)
	const n = 16
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			if l.lock(nil, nil) {
				l.unlock()
			}
		})
	}
	waitFor(t, "the waiters", func() (bool, string) { return l.waiters.Load() == n, "" })
	l.unlock()
	wg.Wait()
	if l.held.Load() {
		t.Fatal("lock held after every waiter let it go")
	}
}

// TestAgentLockNotHandedOver: a lock let go while a caller waits, not
// starving, is free for a running goroutine to take at once, and the
// waiter is only woken to try again. The one-slot channel it replaced
// handed the slot to the waiter as it was let go, so a running caller
// found it held by a goroutine not yet running: under 32 clients on two
// Ps, that goroutine's thread was often the one the kernel had just
// preempted, and every fetch waited for it. The waiter is counted with
// no goroutine behind it, so that nothing can run in between.
func TestAgentLockNotHandedOver(t *testing.T) {
	l := newAgentLock()
	l.waiters.Add(1)
	if !l.lock(nil, nil) {
		t.Fatal("a free lock was not taken")
	}
	l.unlock()
	gone := make(chan struct{})
	close(gone)
	// With gone closed, lock takes the lock only if it is free now.
	if !l.lock(gone, nil) {
		t.Fatal("a lock just let go was not free for a running caller")
	}
	if n := len(l.wake); n != 1 {
		t.Fatalf("%d wake-ups for the waiter, want 1", n)
	}
	l.unlock()
}

// TestAgentLockHandsToStarving: a waiter that has waited longer than
// agentLockStarve (on a clock the test moves) marks itself starving, and
// unlock then hands it the lock still held: a running caller finds it
// taken, and the waiter has it. Once the waiter lets it go, a running
// caller takes it again at once.
func TestAgentLockHandsToStarving(t *testing.T) {
	l := newAgentLock()
	var mu sync.Mutex
	at := time.Unix(1e9, 0)
	l.now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return at
	}
	if !l.lock(nil, nil) {
		t.Fatal("a free lock was not taken")
	}
	got := make(chan bool)
	release := make(chan struct{})
	go func() {
		ok := l.lock(nil, nil)
		got <- ok
		<-release
		if ok {
			l.unlock()
		}
	}()
	waitFor(t, "a waiter", func() (bool, string) { return l.waiters.Load() == 1, "" })
	if n := l.starving.Load(); n != 0 {
		t.Fatalf("%d starving before any time went by", n)
	}
	mu.Lock()
	at = at.Add(2 * agentLockStarve)
	mu.Unlock()
	// A wake-up with the lock still held: the waiter tries, fails, finds
	// it has waited too long, and parks for the hand-off.
	l.wake <- struct{}{}
	waitFor(t, "the waiter starving", func() (bool, string) { return l.starving.Load() == 1, "" })
	waitFor(t, "the waiter parked", waiterParked)
	l.unlock()
	if !l.held.Load() {
		t.Fatal("the lock was let go with a starving waiter parked for it")
	}
	gone := make(chan struct{})
	close(gone)
	if l.lock(gone, nil) {
		t.Fatal("a running caller took the lock handed to a starving waiter")
	}
	if !<-got {
		t.Fatal("the starving waiter did not get the lock")
	}
	close(release)
	waitFor(t, "the waiter gone", func() (bool, string) {
		return l.waiters.Load() == 0 && l.starving.Load() == 0 && !l.held.Load(), ""
	})
	if !l.lock(gone, nil) {
		t.Fatal("a free lock was not taken after the hand-off")
	}
	l.unlock()
}

// waiterParked says whether a goroutine is blocked in agentLock.lock's
// select: a starving waiter not yet parked finds no hand-off, which is
// right, but not what the test looks at.
func waiterParked() (bool, string) {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		if strings.Contains(g, "[select") && strings.Contains(g, "(*agentLock).lock(") {
			return true, ""
		}
	}
	return false, "no goroutine parked in agentLock.lock"
}
