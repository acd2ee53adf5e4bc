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
				h := l.lock(nil, nil)
				if h == 0 {
					t.Error("lock failed with nothing to give up on")
					return
				}
				n++
				l.unlock(h)
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
	h := l.lock(nil, nil)
	if h == 0 {
		t.Fatal("a free lock was not taken")
	}
	gone := make(chan struct{})
	got := make(chan uint64)
	go func() { got <- l.lock(gone, nil) }()
	waitFor(t, "a waiter", func() (bool, string) { return l.waiters.Load() == 1, "" })
	close(gone)
	if <-got != 0 {
		t.Fatal("a waiter took a held lock once gone closed")
	}
	timer := time.NewTimer(time.Millisecond)
	defer timer.Stop()
	if l.lock(nil, timer.C) != 0 {
		t.Fatal("a held lock was taken after the timeout")
	}
	if n := l.waiters.Load(); n != 0 {
		t.Fatalf("%d waiters left counted", n)
	}
	l.unlock(h)
	h = l.lock(gone, nil)
	if h == 0 {
		t.Fatal("a free lock was not taken, gone closed or not")
	}
	l.unlock(h)
	// Letting go of a free lock does nothing more.
	l.unlock(h)
	if l.lock(nil, nil) == 0 {
		t.Fatal("a lock let go twice was not taken")
	}
}

// TestAgentLockWakesWaiters: callers blocked behind a holder all get the
// lock in turn once it is let go, whoever takes it first.
func TestAgentLockWakesWaiters(t *testing.T) {
	l := newAgentLock()
	h := l.lock(nil, nil)
	const n = 16
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			l.unlock(l.lock(nil, nil))
		})
	}
	waitFor(t, "the waiters", func() (bool, string) { return l.waiters.Load() == n, "" })
	l.unlock(h)
	wg.Wait()
	if l.held.Load() != 0 {
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
	h := l.lock(nil, nil)
	if h == 0 {
		t.Fatal("a free lock was not taken")
	}
	l.unlock(h)
	gone := make(chan struct{})
	close(gone)
	// With gone closed, lock takes the lock only if it is free now.
	h = l.lock(gone, nil)
	if h == 0 {
		t.Fatal("a lock just let go was not free for a running caller")
	}
	if n := len(l.wake); n != 1 {
		t.Fatalf("%d wake-ups for the waiter, want 1", n)
	}
	l.unlock(h)
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
	first := l.lock(nil, nil)
	if first == 0 {
		t.Fatal("a free lock was not taken")
	}
	got := make(chan uint64)
	release := make(chan struct{})
	go func() {
		h := l.lock(nil, nil)
		got <- h
		<-release
		l.unlock(h)
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
	l.unlock(first)
	if l.held.Load() == 0 {
		t.Fatal("the lock was let go with a starving waiter parked for it")
	}
	gone := make(chan struct{})
	close(gone)
	if l.lock(gone, nil) != 0 {
		t.Fatal("a running caller took the lock handed to a starving waiter")
	}
	if <-got == 0 {
		t.Fatal("the starving waiter did not get the lock")
	}
	// The first holder's hold has ended: a late release of it leaves the
	// waiter's alone.
	l.unlock(first)
	if l.lock(gone, nil) != 0 {
		t.Fatal("a late release of the handed-over hold freed the waiter's")
	}
	close(release)
	waitFor(t, "the waiter gone", func() (bool, string) {
		return l.waiters.Load() == 0 && l.starving.Load() == 0 && l.held.Load() == 0, ""
	})
	h := l.lock(gone, nil)
	if h == 0 {
		t.Fatal("a free lock was not taken after the hand-off")
	}
	l.unlock(h)
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

// TestAgentLockStaleUnlock: a holder that lets go of the lock a second
// time, after another caller has taken it (a release that comes late,
// as after the holder's call was given up on and the lock passed on),
// must not free the other's hold: a third caller would then run in the
// agent beside the second.
func TestAgentLockStaleUnlock(t *testing.T) {
	l := newAgentLock()
	first := l.lock(nil, nil)
	if first == 0 {
		t.Fatal("a free lock was not taken")
	}
	l.unlock(first)
	second := l.lock(nil, nil)
	if second == 0 {
		t.Fatal("a free lock was not taken")
	}
	l.unlock(first) // the first holder's late, second release
	gone := make(chan struct{})
	close(gone)
	if l.lock(gone, nil) != 0 {
		t.Fatal("a third caller took the lock the second still holds")
	}
	l.unlock(second)
	if l.lock(gone, nil) == 0 {
		t.Fatal("the lock was not free once its holder let it go")
	}
}
