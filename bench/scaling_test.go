package bench

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// The scaling study (issue 20, docs/bench.md "Scaling"): PCP's pmcd and
// ours, the same agents (their own pmcd agent and PCP's pmdasample on a
// pipe), the same Go clients, one run. Each point is short (the machine
// is shared), so every CSV row carries the one-minute load average
// beside it. No test here asserts a time; TestScalingPlots draws the
// CSV files as PNG under docs/bench/.

// scalingDir is where the figures go.
const scalingDir = "testdata/scaling"

// scalingPoint is how long each point is measured for:
// GOPCP_SCALING_SECONDS (default 2).
func scalingPoint() time.Duration {
	if f, err := strconv.ParseFloat(os.Getenv("GOPCP_SCALING_SECONDS"), 64); err == nil && f > 0 {
		return time.Duration(f * float64(time.Second))
	}
	return 2 * time.Second
}

// loadAvg is the one-minute load average, as /proc/loadavg gives it.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	return strings.Fields(string(b))[0]
}

// processTree is pid and its descendants (a pmcd and its pipe agents),
// from /proc/PID/task/TID/children.
func processTree(pid int) []int {
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		tasks, _ := os.ReadDir("/proc/" + strconv.Itoa(out[i]) + "/task")
		for _, task := range tasks {
			b, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(out[i]), "task", task.Name(), "children"))
			for _, f := range strings.Fields(string(b)) {
				if n, err := strconv.Atoi(f); err == nil {
					out = append(out, n)
				}
			}
		}
	}
	return out
}

// treeRSS and treeCPU sum rssKB and cpuTime over processTree(pid).
func treeRSS(t testing.TB, pid int) int {
	n := 0
	for _, p := range processTree(pid) {
		n += rssKB(t, p)
	}
	return n
}

func treeCPU(t testing.TB, pid int) time.Duration {
	var d time.Duration
	for _, p := range processTree(pid) {
		d += cpuTime(t, p)
	}
	return d
}

// scalingRun is one point: fetches per second over all clients, the
// latency quantiles, pmcd + agents CPU per fetch and the clients that
// could not connect.
type scalingRun struct {
	perSecond float64
	p50, p99  time.Duration
	cpuPer    time.Duration
	refused   int
	err       error
}

// fetchLoad connects n clients to bed, each with its own host context,
// has them fetch pmids as fast as they can for d, and measures. A client
// that cannot connect is counted, not fatal: PCP's pmcd has limits of
// its own (select(2)'s FD_SETSIZE) and the study reports where they bite.
func fetchLoad(t testing.TB, bed *testbed.PMCD, pmids []pcp.PMID, n int, d time.Duration) scalingRun {
	ctx := context.Background()
	var ctxs []*pmapi.HostContext
	var run scalingRun
	for range n {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		c, err := pmapi.NewHostContext(cctx, bed.Host())
		cancel()
		if err != nil {
			run.refused++
			if run.err == nil {
				run.err = err
			}
			continue
		}
		ctxs = append(ctxs, c)
	}
	defer func() {
		for _, c := range ctxs {
			c.Close()
		}
	}()
	lats := make([][]time.Duration, len(ctxs))
	var wg sync.WaitGroup
	start := make(chan struct{})
	var mu sync.Mutex
	for i, c := range ctxs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var r pcp.Result
			<-start
			end := time.Now().Add(d)
			for {
				t0 := time.Now()
				if t0.After(end) {
					return
				}
				fctx, cancel := context.WithTimeout(ctx, 30*time.Second)
				_, err := c.Fetch(fctx, pmids, &r)
				cancel()
				if err != nil {
					mu.Lock()
					if run.err == nil {
						run.err = err
					}
					mu.Unlock()
					return
				}
				lats[i] = append(lats[i], time.Since(t0))
			}
		}()
	}
	cpu0 := treeCPU(t, bed.PID())
	t0 := time.Now()
	close(start)
	wg.Wait()
	took := time.Since(t0)
	cpu := treeCPU(t, bed.PID()) - cpu0
	var all []time.Duration
	for _, l := range lats {
		all = append(all, l...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	run.perSecond = float64(len(all)) / took.Seconds()
	run.p50, run.p99 = quantile(all, 0.5), quantile(all, 0.99)
	if len(all) > 0 {
		run.cpuPer = cpu / time.Duration(len(all))
	}
	return run
}

// medianRun is the median of each figure of runs, taken separately, and
// the most refusals of any run.
func medianRun(runs []scalingRun) scalingRun {
	med := func(f func(scalingRun) float64) float64 {
		v := make([]float64, len(runs))
		for i, r := range runs {
			v[i] = f(r)
		}
		sort.Float64s(v)
		return v[len(v)/2]
	}
	out := scalingRun{
		perSecond: med(func(r scalingRun) float64 { return r.perSecond }),
		p50:       time.Duration(med(func(r scalingRun) float64 { return float64(r.p50) })),
		p99:       time.Duration(med(func(r scalingRun) float64 { return float64(r.p99) })),
		cpuPer:    time.Duration(med(func(r scalingRun) float64 { return float64(r.cpuPer) })),
	}
	for _, r := range runs {
		out.refused = max(out.refused, r.refused)
	}
	return out
}

// csvTable collects rows and writes them to testdata/scaling/name.
type csvTable struct {
	name string
	rows [][]string
}

func (c *csvTable) add(fields ...any) {
	row := make([]string, len(fields))
	for i, f := range fields {
		switch v := f.(type) {
		case float64:
			row[i] = strconv.FormatFloat(v, 'f', -1, 64)
		case time.Duration:
			row[i] = strconv.FormatFloat(float64(v.Nanoseconds())/1e3, 'f', 1, 64)
		default:
			row[i] = fmt.Sprint(v)
		}
	}
	c.rows = append(c.rows, row)
}

func (c *csvTable) write(t testing.TB) {
	if err := os.MkdirAll(scalingDir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(scalingDir, c.name))
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(f)
	w.WriteAll(c.rows)
	if err := f.Close(); err != nil || w.Error() != nil {
		t.Fatal(err, w.Error())
	}
	t.Logf("%s:\n%s", c.name, csvText(c.rows))
}

func csvText(rows [][]string) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(strings.Join(r, ",") + "\n")
	}
	return b.String()
}

// impls names the two daemons in the CSV files, in testbed order.
var impls = [2]string{"PCP", "gopcp"}

// raiseNoFile lifts the soft open-file limit to the hard one, for this
// process's 1,000 client sockets and for the daemons it starts (they
// inherit it: a limit set explicitly is not undone for children).
func raiseNoFile(t *testing.T) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	lim.Cur = lim.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if lim.Cur < 2200 {
		t.Logf("open-file limit %d: the 1,000-client point needs about 2,100", lim.Cur)
	}
}

// TestScalingSideBySide measures both daemons: fetch rate, latency,
// memory and CPU against the number of clients, the number of instances
// and the number of metrics per fetch (GOPCP_BENCH=1).
func TestScalingSideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the side-by-side benchmarks")
	}
	raiseNoFile(t)
	d := scalingPoint()
	rounds := 3
	if n, err := strconv.Atoi(os.Getenv("GOPCP_BENCH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	beds := [2]*testbed.PMCD{testbed.StartPMCD(t, testbed.Options{}), testbed.StartGoPMCD(t, testbed.Options{})}
	// measure runs every point rounds times, the daemons alternating,
	// and gives each daemon's medians.
	measure := func(what string, pmids []pcp.PMID, n int) [2]scalingRun {
		var runs [2][]scalingRun
		for range rounds {
			for i, bed := range beds {
				run := fetchLoad(t, bed, pmids, n, d)
				if run.err != nil {
					t.Logf("%s, %s: %d clients refused; first error: %v", impls[i], what, run.refused, run.err)
				}
				runs[i] = append(runs[i], run)
			}
		}
		return [2]scalingRun{medianRun(runs[0]), medianRun(runs[1])}
	}
	ctx := context.Background()
	lookup := func(names []string) []pcp.PMID {
		c, err := pmapi.NewHostContext(ctx, beds[0].Host())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		pmids, err := c.LookupNames(ctx, names)
		if err != nil {
			t.Fatal(err)
		}
		return pmids
	}

	// Clients: the twelve sample metrics of TestPMCDSideBySide.
	clients := &csvTable{name: "clients.csv"}
	clients.add("clients", "impl", "fetches_per_s", "p50_us", "p99_us", "cpu_us_per_fetch", "rss_kb", "refused", "load1")
	pmids := lookup(pmcdBenchSets[0].names)
	for _, n := range []int{1, 32, 256, 1000} {
		runs := measure(fmt.Sprintf("%d clients", n), pmids, n)
		for i, bed := range beds {
			run := runs[i]
			// Memory is taken after the clients leave, as TestPMCDSideBySide does.
			clients.add(n, impls[i], run.perSecond, run.p50, run.p99, run.cpuPer, treeRSS(t, bed.PID()), run.refused, loadAvg())
		}
	}
	clients.write(t)

	// Instances: sample.many.int, whose instance domain has as many
	// instances as sample.many.count is set to (pmStore).
	insts := &csvTable{name: "instances.csv"}
	insts.add("instances", "impl", "fetches_per_s", "p50_us", "p99_us", "cpu_us_per_fetch", "rss_kb", "load1")
	many := lookup([]string{"sample.many.count", "sample.many.int"})
	for _, n := range []int{10, 100, 1000, 10000, 100000} {
		for i, bed := range beds {
			c, err := pmapi.NewHostContext(ctx, bed.Host())
			if err != nil {
				t.Fatal(err)
			}
			err = c.Store(ctx, &pcp.Result{Sets: []pcp.ValueSet{{PMID: many[0], NumVal: 1, ValFmt: pcp.ValInSitu,
				Values: []pcp.Value{{Inst: pcp.InstNull, LVal: int32(n)}}}}})
			var r pcp.Result
			if err == nil {
				_, err = c.Fetch(ctx, many[1:], &r)
			}
			c.Close()
			if err != nil {
				t.Fatalf("%s, %d instances: %v", impls[i], n, err)
			}
			if got := r.Sets[0].NumVal; got != int32(n) {
				t.Fatalf("%s: sample.many.int has %d instances after storing %d", impls[i], got, n)
			}
		}
		runs := measure(fmt.Sprintf("%d instances", n), many[1:], 1)
		for i, bed := range beds {
			run := runs[i]
			insts.add(n, impls[i], run.perSecond, run.p50, run.p99, run.cpuPer, treeRSS(t, bed.PID()), loadAvg())
		}
	}
	insts.write(t)

	// Metrics per fetch: the first n of sample's metrics that have one
	// value each, in PMNS order.
	names := singleValued(t, beds[0])
	metrics := &csvTable{name: "metrics.csv"}
	metrics.add("metrics", "impl", "fetches_per_s", "p50_us", "p99_us", "cpu_us_per_fetch", "load1")
	all := lookup(names)
	for _, n := range []int{1, 4, 16, 64, len(all)} {
		runs := measure(fmt.Sprintf("%d metrics", n), all[:n], 1)
		for i := range beds {
			run := runs[i]
			metrics.add(n, impls[i], run.perSecond, run.p50, run.p99, run.cpuPer, loadAvg())
		}
	}
	metrics.write(t)
}

// singleValued lists the sample metrics whose fetch gives exactly one
// value, as pminfo -f against bed shows them, leaving out those whose
// value or instance count changes on its own.
func singleValued(t *testing.T, bed *testbed.PMCD) []string {
	res := bed.Run("pminfo", "-h", bed.Host(), "-f", "sample")
	var names []string
	blocks := strings.Split(res.Stdout, "\n\n")
	for _, b := range blocks {
		lines := strings.Split(strings.TrimSpace(b), "\n")
		if len(lines) != 2 || !strings.HasPrefix(strings.TrimSpace(lines[1]), "value ") {
			continue
		}
		name := strings.TrimSpace(lines[0])
		if strings.Contains(name, "dodgey") || strings.Contains(name, "event") || strings.Contains(name, "dynamic") {
			continue
		}
		names = append(names, name)
	}
	if len(names) < 64 {
		t.Fatalf("only %d single-valued sample metrics:\n%s", len(names), res.Stdout)
	}
	return names
}
