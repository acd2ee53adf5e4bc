package goroutines

import (
	"runtime"
	"strings"
	"testing"
)

// parked blocks until done is closed: a goroutine with a frame of this
// package's code.
func parked(started, done chan struct{}) {
	close(started)
	<-done
}

func TestIn(t *testing.T) {
	const prefix = "github.com/gopcp/gopcp/internal/testing/goroutines."
	// The caller's own goroutine runs this package's code but is left out.
	if got := In(prefix + "TestIn("); len(got) != 0 {
		t.Fatalf("the caller: %d goroutines:\n%s", len(got), strings.Join(got, "\n\n"))
	}
	done := make(chan struct{})
	for range 3 {
		started := make(chan struct{})
		go parked(started, done)
		<-started
	}
	got := In(prefix + "parked(")
	if len(got) != 3 {
		t.Fatalf("3 parked: %d goroutines:\n%s", len(got), strings.Join(got, "\n\n"))
	}
	for _, g := range got {
		if !strings.Contains(g, prefix+"parked(") {
			t.Errorf("not a parked goroutine:\n%s", g)
		}
	}
	if got := In("github.com/gopcp/gopcp/nothing."); len(got) != 0 {
		t.Errorf("no such code: %d goroutines", len(got))
	}
	// Once they have returned they are not counted: wait for that (the
	// test's deadline bounds the wait), so a repeated run starts clean.
	close(done)
	for len(In(prefix+"parked(")) > 0 {
		runtime.Gosched()
	}
}

// signalsEnd does some work, then tells its owner it is done from within
// its own code, as a deferred close does, and returns.
func signalsEnd(done chan struct{}) {
	defer close(done)
	runtime.Gosched()
}

// TestLeft: goroutines that signalled their end from within their own
// code are not reported once their owner has seen the signal, however
// late they leave it; one that stays is.
func TestLeft(t *testing.T) {
	const prefix = "github.com/gopcp/gopcp/internal/testing/goroutines."
	for range 100 {
		done := make(chan struct{})
		go signalsEnd(done)
		<-done
		if got := Left(prefix + "signalsEnd("); len(got) != 0 {
			t.Fatalf("after the signal: %d goroutines:\n%s", len(got), strings.Join(got, "\n\n"))
		}
	}
	started, stay := make(chan struct{}), make(chan struct{})
	go parked(started, stay)
	<-started
	defer close(stay)
	if got := Left(prefix + "parked("); len(got) != 1 {
		t.Errorf("a goroutine that stays: %d reported, want 1", len(got))
	}
}
