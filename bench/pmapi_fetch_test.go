package bench

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/pcptest"
	"github.com/gopcp/gopcp/internal/testbed"
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
// fetch and the values one fetch gives.
func cFetch(t testing.TB, bed *testbed.PMCD, seconds float64) (float64, int) {
	bin := pcptest.HarnessWith(t, "testdata/harness/pmapi_fetch.c", "-O2")
	out := pcptest.Run(t, "", bin, append([]string{bed.Host(), strconv.FormatFloat(seconds, 'f', -1, 64)}, fetchMetrics...)...)
	var n int64
	var ns float64
	var values int
	if _, err := fmt.Sscanf(strings.TrimSpace(out), "fetches %d ns_per_fetch %g values %d", &n, &ns, &values); err != nil {
		t.Fatalf("harness output %q: %v", out, err)
	}
	return ns, values
}

// TestPMAPIFetchAgree checks that libpcp and pmapi get the same number of
// values from the same fetch, so the benchmark times equal work.
func TestPMAPIFetchAgree(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	_, goValues := goFetch(t, bed)
	_, cValues := cFetch(t, bed, 0.01)
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
	rounds := 3
	if n, err := strconv.Atoi(os.Getenv("GOPCP_BENCH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	var cs, gos []float64
	for range rounds {
		ns, _ := cFetch(t, bed, 1)
		cs = append(cs, ns)
		res := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := fetch(); err != nil {
					b.Fatal(err)
				}
			}
		})
		gos = append(gos, float64(res.T.Nanoseconds())/float64(res.N))
		t.Logf("round: libpcp %.0f ns/fetch, pmapi %.0f ns/fetch (%d allocs/op)", ns, gos[len(gos)-1], res.AllocsPerOp())
	}
	c, g := median(cs), median(gos)
	t.Logf("fetch of %d metrics, %d values, against PCP's pmcd: libpcp %.1f µs (%.0f fetches/s), pmapi %.1f µs (%.0f fetches/s), ratio libpcp/pmapi %.2f",
		len(fetchMetrics), values, c/1e3, 1e9/c, g/1e3, 1e9/g, c/g)
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
