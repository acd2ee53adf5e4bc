//go:build !race

package trace_test

import (
	"context"
	"testing"
)

// TestHandleFetchAllocs: the benchmark's fetch (14 metrics of 40 tags,
// 140 values) allocates nothing once steady.
func TestHandleFetchAllocs(t *testing.T) {
	a, msg := benchFetch(t)
	ctx := context.Background()
	if n := testing.AllocsPerRun(100, func() {
		if _, err := a.PMDA().Handle(ctx, 0, msg); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations a fetch, want 0", n)
	}
}
