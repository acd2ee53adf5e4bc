package clitest

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

// Bounds for work over damaged input that must end: generous, so that a
// loaded machine or the race detector never trips them, yet far below
// what a loop that never advances reaches (it grew by 500 MB in 10 s).
const (
	BoundTime = 3 * time.Minute
	BoundHeap = 1 << 30
)

// Bounded runs fn, the reading of damaged input named by what, and ends
// the test binary with a failure (and every goroutine's stack) when it
// runs longer than d or the live heap grows by more than heap bytes
// while it does. A loop over damaged data that never advances must fail
// the run rather than hang it or take the machine's memory, and a
// stuck goroutine cannot be stopped from outside, so the process ends.
func Bounded(t testing.TB, what string, d time.Duration, heap uint64, fn func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go watch(ctx, done, what, d, heap)
	defer func() {
		cancel()
		<-done
	}()
	fn()
}

// watch is Bounded's watchdog: it returns (closing done) when ctx ends,
// and ends the process when the bounds are passed first.
func watch(ctx context.Context, done chan<- struct{}, what string, d time.Duration, heap uint64) {
	defer close(done)
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	live := func() uint64 {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return sample[0].Value.Uint64()
	}
	base := live()
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-deadline.C:
			fail(fmt.Sprintf("%s: still running after %v (a loop that does not advance?)", what, d))
		case <-tick.C:
			if n := live(); n > base && n-base > heap {
				fail(fmt.Sprintf("%s: heap grew by %d bytes (a loop that does not advance?)", what, n-base))
			}
		}
	}
}

func fail(msg string) {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	fmt.Fprintf(os.Stderr, "FAIL: %s\n\n%s\n", msg, buf)
	os.Exit(2)
}
