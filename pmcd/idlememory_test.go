package pmcd

import (
	"testing"
	"time"
)

// TestIdleFree: the last client's going schedules one hand-back of
// memory, which runs while no client is connected; more goings meanwhile
// schedule no other, and stop cancels one not yet begun.
func TestIdleFree(t *testing.T) {
	t.Parallel()
	var f idleFree
	f.clientsGone(func() bool { return true })
	f.mu.Lock()
	first := f.scheduled
	f.mu.Unlock()
	if first == nil {
		t.Fatal("nothing scheduled when the last client went")
	}
	for {
		f.mu.Lock()
		last, due := f.last, f.scheduled
		f.mu.Unlock()
		if !last.IsZero() && due == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The next hand-back waits a while after this one (an hour here): a
	// second going schedules it, a third adds nothing, and stop cancels
	// it.
	f.mu.Lock()
	f.every = time.Hour
	f.mu.Unlock()
	f.clientsGone(func() bool { return true })
	f.mu.Lock()
	second := f.scheduled
	f.mu.Unlock()
	f.clientsGone(func() bool { return true })
	f.mu.Lock()
	third := f.scheduled
	f.mu.Unlock()
	if second == nil || third != second {
		t.Fatalf("schedules %p then %p, want one", second, third)
	}
	f.stop()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.scheduled != nil {
		t.Error("a hand-back is still scheduled after stop")
	}
}

// TestIdleFreeAfterClose: a Server hands memory back only if asked
// (FreeIdleMemory), and a last client that goes after Close has stopped
// the hand-backs (dropClient racing Close) schedules none that would
// outlive the server.
func TestIdleFreeAfterClose(t *testing.T) {
	t.Parallel()
	scheduled := func(s *Server) bool {
		s.idleFree.mu.Lock()
		defer s.idleFree.mu.Unlock()
		return s.idleFree.scheduled != nil
	}
	var plain Server
	plain.clientsLeft()
	if scheduled(&plain) {
		t.Error("a hand-back scheduled by a Server not asked for them")
	}
	asked := Server{FreeIdleMemory: true}
	asked.idleFree.every = time.Hour
	asked.idleFree.last = time.Now()
	asked.clientsLeft()
	if !scheduled(&asked) {
		t.Error("no hand-back scheduled by a Server asked for them")
	}
	// Close's stop, then the last client's going.
	asked.idleFree.stop()
	asked.clientsLeft()
	if scheduled(&asked) {
		t.Error("a hand-back scheduled after stop")
	}
}
