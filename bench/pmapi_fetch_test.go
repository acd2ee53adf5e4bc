package bench

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

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
// fetch, the values one fetch gives and the client's CPU ns per fetch.
func cFetch(t testing.TB, bed *testbed.PMCD, seconds float64) (float64, int, float64) {
	bin := pcptest.HarnessWith(t, "testdata/harness/pmapi_fetch.c", "-O2")
	out := pcptest.Run(t, "", bin, append([]string{bed.Host(), strconv.FormatFloat(seconds, 'f', -1, 64)}, fetchMetrics...)...)
	var n int64
	var ns float64
	var values int
	var cpu float64
	if _, err := fmt.Sscanf(strings.TrimSpace(out), "fetches %d ns_per_fetch %g values %d cpu_ns_per_fetch %g", &n, &ns, &values, &cpu); err != nil {
		t.Fatalf("harness output %q: %v", out, err)
	}
	return ns, values, cpu
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
	// The machine is shared, so the two sides alternate in short slices
	// and the ratio is the median of the slices' ratios.
	rounds := 9
	if n, err := strconv.Atoi(os.Getenv("GOPCP_BENCH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	var cs, gos, ratios, ccpu, gcpu []float64
	for range rounds {
		ns, _, cc := cFetch(t, bed, 0.3)
		n, start, cpu0 := 0, time.Now(), cpuNow()
		for time.Since(start) < 300*time.Millisecond {
			if err := fetch(); err != nil {
				t.Fatal(err)
			}
			n++
		}
		g := float64(time.Since(start).Nanoseconds()) / float64(n)
		gc := float64(cpuNow()-cpu0) / float64(n)
		cs, gos, ratios = append(cs, ns), append(gos, g), append(ratios, ns/g)
		ccpu, gcpu = append(ccpu, cc), append(gcpu, gc)
		t.Logf("slice: libpcp %.0f ns/fetch (cpu %.0f), pmapi %.0f ns/fetch (cpu %.0f), ratio %.2f", ns, cc, g, gc, ns/g)
	}
	allocs := testing.AllocsPerRun(100, func() { fetch() })
	c, g := median(cs), median(gos)
	t.Logf("fetch of %d metrics, %d values, against PCP's pmcd, %d slices: libpcp %.1f µs (%.0f fetches/s, client cpu %.1f µs), pmapi %.1f µs (%.0f fetches/s, client cpu %.1f µs, %.0f allocs/fetch); median ratio libpcp/pmapi %.2f, client cpu ratio %.2f",
		len(fetchMetrics), values, rounds, c/1e3, 1e9/c, median(ccpu)/1e3, g/1e3, 1e9/g, median(gcpu)/1e3, allocs, median(ratios), median(ccpu)/median(gcpu))
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
