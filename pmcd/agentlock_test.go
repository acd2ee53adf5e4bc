package pmcd

import (
	"runtime"
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

// TestAgentLockNotHandedOver: a lock let go while a caller waits is free
// for the goroutine that let it go to take again at once, before the
// waiter it woke has run. On one P the waiter cannot run in between. The
// one-slot channel it replaced handed the slot to the waiter as it was
// let go, so a running caller found it held by a goroutine not yet
// running: under 32 clients on two Ps, that goroutine's thread was often
// the one the kernel had just preempted, and every fetch waited for it.
func TestAgentLockNotHandedOver(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	l := newAgentLock()
	l.lock(nil, nil)
	done := make(chan bool)
	go func() {
		ok := l.lock(nil, nil)
		if ok {
			l.unlock()
		}
		done <- ok
	}()
	waitFor(t, "a waiter", func() (bool, string) { return l.waiters.Load() == 1, "" })
	l.unlock()
	gone := make(chan struct{})
	close(gone)
	// With gone closed, lock takes the lock only if it is free now.
	if !l.lock(gone, nil) {
		t.Fatal("a lock just let go was not free for a running caller: handed to the waiter")
	}
	l.unlock()
	if !<-done {
		t.Fatal("the waiter never took the lock")
	}
}
