package linux

import (
	"context"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// allPMIDs builds the agent over this host and lists every metric it
// serves.
func allPMIDs(tb testing.TB) (*pmda.Agent, []pcp.PMID) {
	tb.Helper()
	x, err := newLinux(Options{CacheDir: tb.TempDir()})
	if err != nil {
		tb.Fatal(err)
	}
	a, err := x.agent(Domain)
	if err != nil {
		tb.Fatal(err)
	}
	var pmids []pcp.PMID
	for i := range pcpDescs {
		if _, ok := x.bindings[pcpDescs[i].Name]; ok {
			pmids = append(pmids, pcpDescs[i].desc(Domain).PMID)
		}
	}
	return a, pmids
}

// BenchmarkFetchAll fetches every metric the agent serves, each source
// read once.
func BenchmarkFetchAll(b *testing.B) {
	a, pmids := allPMIDs(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Fetch(ctx, 0, pmids); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFetchAllocs checks a steady fetch of every metric allocates next to
// nothing: no allocation per value (over a thousand values here), only
// the few the system calls for filesystem statistics and interface
// addresses make.
func TestFetchAllocs(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("reads the host's /proc a few hundred times; the race detector allocates for itself")
	}
	a, pmids := allPMIDs(t)
	ctx := context.Background()
	a.Fetch(ctx, 0, pmids) // first fetch sizes the buffers
	n := testing.AllocsPerRun(20, func() {
		if _, err := a.Fetch(ctx, 0, pmids); err != nil {
			t.Fatal(err)
		}
	})
	if limit := 128.0; n > limit { // one per value would be over a thousand
		t.Errorf("%.0f allocations per fetch of %d metrics; want at most %.0f", n, len(pmids), limit)
	}
	t.Logf("%.0f allocations per fetch of %d metrics", n, len(pmids))
}

// TestHandleFetchAllocs: the benchmark's typical fetch allocates nothing
// once steady. It reads the fixture tree, whose disks and interfaces
// neither come nor go: on the host a device appearing between runs (a
// tun device, a disk plugged in) is a new instance, which allocates.
func TestHandleFetchAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates for itself")
	}
	a, msg := benchFetchWith(t, fixtureOptions)
	ctx := context.Background()
	reply, err := a.Handle(ctx, 0, msg)
	if err != nil {
		t.Fatal(err)
	}
	for i, set := range reply.(*pdu.Result).Sets {
		if set.NumVal <= 0 { // the fixture has every one, disks and interfaces too
			t.Errorf("%s: numval %d over the fixture", benchMetrics[i], set.NumVal)
		}
	}
	if n := testing.AllocsPerRun(20, func() {
		if _, err := a.Handle(ctx, 0, msg); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations a fetch of %d metrics, want 0", n, len(benchMetrics))
	}
}
