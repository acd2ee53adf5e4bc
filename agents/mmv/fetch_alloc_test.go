//go:build !race

package mmv

import (
	"context"
	"testing"
)

// TestHandleFetchAllocs: the benchmark's fetch (seven metrics, a string
// among them, 37 values) allocates nothing once steady.
func TestHandleFetchAllocs(t *testing.T) {
	a, msg := benchAgent(t)
	ctx := context.Background()
	if n := testing.AllocsPerRun(100, func() {
		if _, err := a.Handle(ctx, 0, msg); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations a fetch, want 0", n)
	}
}
