package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/mmv"
)

// mmvHarness builds the C side of the MMV update benchmark against
// libpcp_mmv.
func mmvHarness(t testing.TB) string {
	if _, err := os.Stat("/usr/include/pcp/mmv_stats.h"); err != nil {
		pcptest.Missing(t, "libpcp-mmv1-dev is not installed")
	}
	return pcptest.HarnessWith(t, "testdata/harness/mmv_inc.c", "-O2", "-Wl,--no-as-needed", "-lpcp_mmv")
}

// timeMMVC runs one libpcp_mmv timing and returns its ns/op; the harness
// itself checks that the value holds every update it made.
func timeMMVC(t testing.TB, bin, mode string) float64 {
	path := filepath.Join(t.TempDir(), "bench")
	out, err := exec.Command(bin, mode, path, strconv.FormatInt(benchTime().Nanoseconds(), 10)).CombinedOutput()
	if err != nil {
		t.Fatalf("mmv_inc %s: %v\n%s", mode, err, out)
	}
	ns, err := strconv.ParseFloat(strings.Fields(string(out))[0], 64)
	if err != nil {
		t.Fatalf("mmv_inc %s: bad output %q", mode, out)
	}
	return ns
}

// mmvCounter is a started registry with one Uint64 counter, as the C
// harness makes.
func mmvCounter(t testing.TB) (*mmv.Registry, *mmv.Metric) {
	r, err := mmv.New("bench", mmv.Options{Dir: t.TempDir(), Cluster: 1})
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.AddMetric("count", mmv.Uint64, mmv.SemCounter, mmv.MetricOptions{Item: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	return r, m
}

// mmvGoCase is one Go update: loop makes n updates, the update written
// in the loop as a program would (inlined where Go inlines it), as the C
// harness's loops call libpcp_mmv directly.
type mmvGoCase struct {
	name string
	loop func(n int64)
}

// mmvGoCases are the Go updates timed against libpcp_mmv's. The last,
// a SingleCounter, pins r (no metric may be added to it afterwards).
func mmvGoCases(t testing.TB, r *mmv.Registry, m *mmv.Metric) []mmvGoCase {
	v := m.Value()
	c := counterOf(m)
	single, err := r.SingleWriter(c)
	if err != nil {
		t.Fatal(err)
	}
	return []mmvGoCase{
		{"Counter.Inc", func(n int64) {
			for range n {
				c.Inc()
			}
		}},
		{"Value.Add(1)", func(n int64) {
			for range n {
				v.Add(1)
			}
		}},
		{"Value.AddFloat(1)", func(n int64) {
			for range n {
				v.AddFloat(1)
			}
		}},
		{"SingleCounter.Inc (one writer, not atomic)", func(n int64) {
			for range n {
				single.Inc()
			}
		}},
	}
}

// threadCPUPerOp runs loop on one locked OS thread and returns its CPU
// time per update (CLOCK_THREAD_CPUTIME_ID, as the C harness), n grown as
// the harness grows its own until a run lasts the benchtime.
func threadCPUPerOp(t testing.TB, loop func(n int64)) float64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	bt := float64(benchTime().Nanoseconds())
	for n := int64(1); ; {
		t0 := threadCPU(t)
		loop(n)
		el := threadCPU(t) - t0
		if el >= bt || n >= 4e9 {
			return el / float64(n)
		}
		next := int64(100 * n)
		if el > 0 {
			next = min(int64(bt*1.2*float64(n)/el), 100*n)
		}
		n = max(next, n+1)
	}
}

// threadCPU is the calling thread's CPU time in nanoseconds.
func threadCPU(t testing.TB) float64 {
	var ts syscall.Timespec
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		t.Fatalf("clock_gettime: %v", e)
	}
	return float64(ts.Nano())
}

// counterOf wraps a Uint64 counter metric's value as a Counter, through
// the typed API's own path.
func counterOf(m *mmv.Metric) mmv.Counter { return mmv.CounterOf(m.Value()) }

// BenchmarkMMVUpdate times gopcp's value updates alone.
func BenchmarkMMVUpdate(b *testing.B) {
	r, m := mmvCounter(b)
	defer r.Close()
	for _, c := range mmvGoCases(b, r, m) {
		b.Run(c.name, func(b *testing.B) {
			c.loop(int64(b.N))
		})
	}
	b.Run("Counter.Inc parallel", func(b *testing.B) {
		c := counterOf(m)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				c.Inc()
			}
		})
	})
}

// TestMMVSideBySide times a value update through libpcp_mmv (the
// documented mmv_inc_value, mmv_inc, and a bare atomic add on the mapped
// value as the floor) and through this package, in one run, rounds
// interleaved, in thread CPU time on both sides, and prints the medians.
func TestMMVSideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("set GOPCP_BENCH=1 to run the side-by-side benchmarks")
	}
	rounds := 5
	if s := os.Getenv("GOPCP_BENCH_ROUNDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("GOPCP_BENCH_ROUNDS=%q", s)
		}
		rounds = n
	}
	bin := mmvHarness(t)
	r, m := mmvCounter(t)
	defer r.Close()
	cModes := []string{"inc_value", "inc", "atomic"}
	goCases := mmvGoCases(t, r, m)
	cFig := make([][]float64, len(cModes))
	goFig := make([][]float64, len(goCases))
	var allocs float64
	for round := range rounds {
		for i, mode := range cModes {
			ns := timeMMVC(t, bin, mode)
			cFig[i] = append(cFig[i], ns)
			t.Logf("round %d: libpcp_mmv %s %.2f ns/op", round+1, mode, ns)
		}
		for i, c := range goCases {
			ns := threadCPUPerOp(t, c.loop)
			allocs = max(allocs, testing.AllocsPerRun(10, func() { c.loop(1000) }))
			goFig[i] = append(goFig[i], ns)
			t.Logf("round %d: gopcp %s %.2f ns/op", round+1, c.name, ns)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s %s/%s, %d CPUs, benchtime %v, median of %d rounds, gopcp allocs/op %v\n\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), benchTime(), rounds, allocs)
	b.WriteString("| update | ns/op | mmv_inc_value ÷ this |\n|---|---:|---:|\n")
	ref := median(cFig[0])
	for i, mode := range cModes {
		fmt.Fprintf(&b, "| libpcp_mmv %s | %s | %.2f |\n", mode, num(median(cFig[i])), ref/median(cFig[i]))
	}
	for i, c := range goCases {
		fmt.Fprintf(&b, "| gopcp %s | %s | %.2f |\n", c.name, num(median(goFig[i])), ref/median(goFig[i]))
	}
	t.Log(b.String())
	if allocs != 0 {
		t.Errorf("a gopcp update allocates (%v allocs/op)", allocs)
	}
	if p := os.Getenv("GOPCP_BENCH_OUT"); p != "" {
		if err := os.WriteFile(p, []byte(b.String()+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
