//go:build !race

package sample

import (
	"context"
	"testing"
)

// TestHandleFetchAllocs: the bench's fetch through Handle allocates
// nothing once steady, in-process or not.
func TestHandleFetchAllocs(t *testing.T) {
	for _, dso := range []bool{true, false} {
		a, msg := benchFetch(t, dso)
		ctx := context.Background()
		if n := testing.AllocsPerRun(100, func() {
			if _, err := a.Handle(ctx, 0, msg); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("dso %v: %v allocations a fetch, want 0", dso, n)
		}
	}
}
