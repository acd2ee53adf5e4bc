//go:build !race

package proc

import (
	"context"
	"testing"
)

// TestHandleFetchAllocs: the benchmark's fetch of a typical process
// report over a fixture tree (whose processes neither come nor go)
// allocates nothing once steady.
func TestHandleFetchAllocs(t *testing.T) {
	a, msg := benchFetch(t, fixtureTreeOf(t, 20, false))
	ctx := context.Background()
	if n := testing.AllocsPerRun(50, func() {
		if _, err := a.Handle(ctx, 1, msg); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations a fetch, want 0", n)
	}
}

// TestHandleFetchCgroupAllocs: the cgroup benchmark's fetch (its walk,
// files and values) over a cgroup2 tree whose cgroups neither come nor
// go allocates nothing once steady.
func TestHandleFetchCgroupAllocs(t *testing.T) {
	a, msg := benchFetchOf(t, cgroupTree(t, 20), benchCgroupMetrics)
	ctx := context.Background()
	if n := testing.AllocsPerRun(50, func() {
		if _, err := a.Handle(ctx, 1, msg); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations a fetch, want 0", n)
	}
}
