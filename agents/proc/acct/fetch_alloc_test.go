//go:build !race

package acct

import "testing"

// TestRefreshFetchAllocs: the benchmark's refresh and values allocate
// nothing once steady (no records arriving).
func TestRefreshFetchAllocs(t *testing.T) {
	step := benchSource(t)
	step()
	if n := testing.AllocsPerRun(50, func() { step() }); n != 0 {
		t.Errorf("%v allocations a fetch, want 0", n)
	}
}
