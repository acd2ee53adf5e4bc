//go:build !race

package pmda

import (
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestFetchSteadyStateAllocs checks that fetching the same metrics again
// reuses the agent's result and value storage.
func TestFetchSteadyStateAllocs(t *testing.T) {
	a := newTestAgent(t, &testFetcher{})
	ids := []pcp.PMID{pmid(itemU32), pmid(itemInst), pmid(itemU64), pmid(itemDouble), pmid(itemPartial), pmid(99)}
	if _, err := a.Fetch(bg, 0, ids); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := a.Fetch(bg, 0, ids); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per steady fetch, want 0", allocs)
	}
}

// TestCacheAppendActiveAllocs: with room in dst, AppendActive allocates
// nothing (agents list an instance domain every fetch).
func TestCacheAppendActiveAllocs(t *testing.T) {
	c := NewCache(pcp.NewInDom(1, 1))
	for _, n := range []string{"a", "b", "c"} {
		if _, err := c.Add(n, nil); err != nil {
			t.Fatal(err)
		}
	}
	buf := make([]Instance, 0, 8)
	if n := testing.AllocsPerRun(10, func() { buf = c.AppendActive(buf[:0]) }); n != 0 {
		t.Errorf("%v allocations with room in dst", n)
	}
}
