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
