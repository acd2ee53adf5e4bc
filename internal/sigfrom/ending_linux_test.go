package sigfrom

import (
	"slices"
	"syscall"
	"testing"
)

// TestEndingHasRealTime: the written-out list holds every real-time
// signal from 35 to the last, once each.
func TestEndingHasRealTime(t *testing.T) {
	for n := 35; n <= maxSignal; n++ {
		if c := countOf(Ending, syscall.Signal(n)); c != 1 {
			t.Errorf("signal %d is in Ending %d times", n, c)
		}
	}
	if slices.Contains(Ending, syscall.Signal(33)) || slices.Contains(Ending, syscall.Signal(34)) {
		t.Error("Ending holds a signal the runtime keeps")
	}
}

func countOf(sigs []syscall.Signal, s syscall.Signal) int {
	n := 0
	for _, x := range sigs {
		if x == s {
			n++
		}
	}
	return n
}
