package bench

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// cFetchHarness runs a libpcp fetch harness (harness under testdata/)
// against bed for the given seconds and returns its ns per fetch, the
// values one fetch gives and the client's CPU ns per fetch.
func cFetchHarness(t testing.TB, bed *testbed.PMCD, harness string, seconds float64) (float64, int, float64) {
	bin := pcptest.HarnessWith(t, harness, "-O2")
	out := pcptest.Run(t, "", bin, append([]string{bed.Host(), strconv.FormatFloat(seconds, 'f', -1, 64)}, fetchMetrics...)...)
	var (
		n      int64
		ns     float64
		values int
		cpu    float64
	)
	if _, err := fmt.Sscanf(strings.TrimSpace(out), "fetches %d ns_per_fetch %g values %d cpu_ns_per_fetch %g", &n, &ns, &values, &cpu); err != nil {
		t.Fatalf("harness output %q: %v", out, err)
	}
	return ns, values, cpu
}

// sliceSummary is what alternating slices of libpcp and gopcp measured:
// medians of each side's ns and client CPU ns per fetch, of the slices'
// ratios, and gopcp's allocations per fetch.
type sliceSummary struct {
	rounds            int
	c, g, cCPU, gCPU  float64
	ratio, allocsPerG float64
}

// alternateSlices runs libpcp's side (cSide, for the given seconds) and
// gopcp's fetch in turn, 0.3 s each, GOPCP_BENCH_ROUNDS times (9 by
// default): the machine is shared, so short alternating slices and the
// median of their ratios rank the two more fairly than one long run each.
func alternateSlices(t *testing.T, name string, cSide func(seconds float64) (ns, cpu float64), fetch func() error) sliceSummary {
	rounds := 9
	if n, err := strconv.Atoi(os.Getenv("GOPCP_BENCH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	var cs, gos, ratios, ccpu, gcpu []float64
	for range rounds {
		ns, cc := cSide(0.3)
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
		t.Logf("slice: libpcp %.0f ns/fetch (cpu %.0f), %s %.0f ns/fetch (cpu %.0f), ratio %.2f", ns, cc, name, g, gc, ns/g)
	}
	return sliceSummary{
		rounds: rounds,
		c:      median(cs), g: median(gos), cCPU: median(ccpu), gCPU: median(gcpu),
		ratio:      median(ratios),
		allocsPerG: testing.AllocsPerRun(100, func() { fetch() }),
	}
}
