package bench

import (
	"context"
	"os"
	"testing"

	"github.com/gopcp/gopcp/fetchgroup"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pmapi"
)

// goFetchGroup makes a fetchgroup of every instance of fetchMetrics as
// doubles (counters as rates) and returns its fetch and the values one
// fetch fills.
func goFetchGroup(t testing.TB, bed *testbed.PMCD) (func() error, int) {
	ctx := context.Background()
	g, err := fetchgroup.Create(ctx, pmapi.KindHost, bed.Host())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	var hs []*fetchgroup.InDom[float64]
	for _, m := range fetchMetrics {
		h, err := fetchgroup.ExtendInDom[float64](ctx, g, m, nil)
		if err != nil {
			t.Fatal(err)
		}
		hs = append(hs, h)
	}
	fetch := func() error {
		_, err := g.Fetch(ctx)
		return err
	}
	fetch()
	if err := fetch(); err != nil {
		t.Fatal(err)
	}
	values := 0
	for _, h := range hs {
		for _, in := range h.Instances() {
			if in.Err == nil {
				values++
			}
		}
	}
	return fetch, values
}

// cFetchGroup runs libpcp's side for the given seconds and returns ns per
// fetch, the values one fetch fills and the client's CPU ns per fetch.
func cFetchGroup(t testing.TB, bed *testbed.PMCD, seconds float64) (float64, int, float64) {
	return cFetchHarness(t, bed, "testdata/harness/fetchgroup_fetch.c", seconds)
}

// TestFetchGroupAgree checks that libpcp's fetchgroup and ours fill the
// same number of values, so the benchmark times equal work.
func TestFetchGroupAgree(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	_, goValues := goFetchGroup(t, bed)
	_, cValues, _ := cFetchGroup(t, bed, 0.01)
	if goValues != cValues || goValues < 50 {
		t.Fatalf("values per fetch: fetchgroup %d, libpcp %d", goValues, cValues)
	}
}

// TestFetchGroupSideBySide times fetchgroup fetches of 10 metrics × all
// instances, converted to doubles with counters as rates, through package
// fetchgroup and through libpcp's pmFetchGroup against one PCP pmcd, in
// alternating slices (GOPCP_BENCH=1; GOPCP_BENCH_ROUNDS slices, medians
// reported).
func TestFetchGroupSideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the side-by-side benchmarks")
	}
	bed := testbed.StartPMCD(t, testbed.Options{})
	fetch, values := goFetchGroup(t, bed)
	r := alternateSlices(t, "fetchgroup", func(sec float64) (float64, float64) {
		ns, _, cpu := cFetchGroup(t, bed, sec)
		return ns, cpu
	}, fetch)
	t.Logf("fetchgroup of %d metrics, %d values as doubles, against PCP's pmcd, %d slices: libpcp %.1f µs (%.0f fetches/s, client cpu %.1f µs), gopcp %.1f µs (%.0f fetches/s, client cpu %.1f µs, %.0f allocs/fetch); median ratio libpcp/gopcp %.2f, client cpu ratio %.2f",
		len(fetchMetrics), values, r.rounds, r.c/1e3, 1e9/r.c, r.cCPU/1e3, r.g/1e3, 1e9/r.g, r.gCPU/1e3, r.allocsPerG, r.ratio, r.cCPU/r.gCPU)
}

// BenchmarkFetchGroup times package fetchgroup's side alone.
func BenchmarkFetchGroup(b *testing.B) {
	bed := testbed.StartPMCD(b, testbed.Options{})
	fetch, _ := goFetchGroup(b, bed)
	b.ReportAllocs()
	for b.Loop() {
		if err := fetch(); err != nil {
			b.Fatal(err)
		}
	}
}
