package bench

import (
	"context"
	"os"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// fetchMetrics are the ten sample metrics the fetch benchmark asks for,
// every instance of each: 65 values from PCP's sample agent.
var fetchMetrics = []string{
	"sample.bin", "sample.colour", "sample.bucket", "sample.part_bin", "sample.long.bin",
	"sample.long.bin_ctr", "sample.ulong.bin", "sample.longlong.bin", "sample.float.bin", "sample.double.bin",
}

// goFetch connects pmapi to the bed and returns a fetch function using a
// reused Result, and the number of values one fetch gives.
func goFetch(t testing.TB, bed *testbed.PMCD) (func() error, int) {
	ctx := context.Background()
	c, err := pmapi.NewHostContext(ctx, bed.Host())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	pmids, err := c.LookupNames(ctx, fetchMetrics)
	if err != nil {
		t.Fatal(err)
	}
	var r pcp.Result
	fetch := func() error {
		_, err := c.Fetch(ctx, pmids, &r)
		return err
	}
	if err := fetch(); err != nil {
		t.Fatal(err)
	}
	values := 0
	for _, s := range r.Sets {
		values += max(int(s.NumVal), 0)
	}
	return fetch, values
}

// cFetch runs libpcp's side for the given seconds and returns ns per
// fetch, the values one fetch gives and the client's CPU ns per fetch.
func cFetch(t testing.TB, bed *testbed.PMCD, seconds float64) (float64, int, float64) {
	return cFetchHarness(t, bed, "testdata/harness/pmapi_fetch.c", seconds)
}

// TestPMAPIFetchAgree checks that libpcp and pmapi get the same number of
// values from the same fetch, so the benchmark times equal work.
func TestPMAPIFetchAgree(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	_, goValues := goFetch(t, bed)
	_, cValues, _ := cFetch(t, bed, 0.01)
	if goValues != cValues || goValues < 50 {
		t.Fatalf("values per fetch: pmapi %d, libpcp %d", goValues, cValues)
	}
}

// TestPMAPIFetchSideBySide times fetches of 10 metrics × all instances
// through pmapi and through libpcp against one PCP pmcd, in one run
// (GOPCP_BENCH=1; GOPCP_BENCH_ROUNDS rounds, median reported).
func TestPMAPIFetchSideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the side-by-side benchmarks")
	}
	bed := testbed.StartPMCD(t, testbed.Options{})
	fetch, values := goFetch(t, bed)
	r := alternateSlices(t, "pmapi", func(sec float64) (float64, float64) {
		ns, _, cpu := cFetch(t, bed, sec)
		return ns, cpu
	}, fetch)
	t.Logf("fetch of %d metrics, %d values, against PCP's pmcd, %d slices: libpcp %.1f µs (%.0f fetches/s, client cpu %.1f µs), pmapi %.1f µs (%.0f fetches/s, client cpu %.1f µs, %.0f allocs/fetch); median ratio libpcp/pmapi %.2f, client cpu ratio %.2f",
		len(fetchMetrics), values, r.rounds, r.c/1e3, 1e9/r.c, r.cCPU/1e3, r.g/1e3, 1e9/r.g, r.gCPU/1e3, r.allocsPerG, r.ratio, r.cCPU/r.gCPU)
}

// BenchmarkPMAPIFetch times pmapi's side alone.
func BenchmarkPMAPIFetch(b *testing.B) {
	bed := testbed.StartPMCD(b, testbed.Options{})
	fetch, _ := goFetch(b, bed)
	b.ReportAllocs()
	for b.Loop() {
		if err := fetch(); err != nil {
			b.Fatal(err)
		}
	}
}

// cpuNow is this process's user and system time in nanoseconds.
func cpuNow() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
