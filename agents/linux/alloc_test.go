package linux

import (
	"context"
	"runtime"
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
		if _, ok := x.boundAt(i); ok {
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

// TestFetchAllocs checks a steady fetch of every metric allocates
// nothing: directories are listed, paths built and statfs called from
// kept buffers, and text values become strings only when they change. A
// device or mount that comes or goes is a new listing, which allocates
// (its names, the published instances), and so does the runtime as it
// fills a type assertion's cache, which it does at random during the
// first thousand or so calls: when a measurement sees either, it is
// taken again, a few times.
func TestFetchAllocs(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("reads the host's /proc a few hundred times; the race detector allocates for itself")
	}
	a, pmids := allPMIDs(t)
	ctx := context.Background()
	for range 5 { // the first fetch sizes the buffers
		a.Fetch(ctx, 0, pmids)
	}
	const runs = 20
	var n uint64
	for try := 0; try < 3; try++ {
		n = mallocs(runs, func() {
			if _, err := a.Fetch(ctx, 0, pmids); err != nil {
				t.Fatal(err)
			}
		})
		if n == 0 {
			break
		}
		t.Logf("try %d: %d allocations in %d fetches", try, n, runs)
	}
	if n != 0 {
		t.Errorf("%d allocations in %d fetches of %d metrics; want 0", n, runs, len(pmids))
	}
}

// mallocs counts the allocations of runs calls of f, all of them:
// testing.AllocsPerRun rounds its average down, so it would let through
// an allocation made every few fetches.
func mallocs(runs int, f func()) uint64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs
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
