package bench

import (
	"context"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmcd"
)

// pmcdBenchSets are the metric sets fetched: sample metrics, answered by
// PCP's sample agent on a pipe under both daemons, and metrics of pmcd's
// own agent, answered inside each daemon.
var pmcdBenchSets = []struct {
	name  string
	names []string
}{
	{"sample (pipe agent)", []string{"sample.long.one", "sample.long.ten", "sample.ulong.hundred",
		"sample.longlong.million", "sample.float.one", "sample.double.ten", "sample.string.hullo",
		"sample.colour", "sample.bin", "sample.seconds", "sample.milliseconds", "sample.load"}},
	{"pmcd (in-process agent)", []string{"pmcd.version", "pmcd.numagents", "pmcd.numclients",
		"pmcd.control.timeout", "pmcd.pdu_in.total", "pmcd.pdu_out.total", "pmcd.agent.status",
		"pmcd.agent.type", "pmcd.control.register", "pmcd.hostname"}},
}

// pmcdRun is one timed run: round trips, their latencies and the
// daemon's CPU time per round trip.
type pmcdRun struct {
	fetches   int
	perSecond float64
	latencies []time.Duration
	cpuPer    time.Duration
	// clientCPUPer is the clients' CPU per round trip over the load
	// (getrusage: the bench process's, or its client processes'): the
	// clients' share of the two CPUs, to tell whether the client or the
	// daemon sets the rate.
	clientCPUPer time.Duration
	// clientUsage is the clients' CPU and context switches over the load.
	clientUsage clientUsage
	// daemonSched and clientSched are what the scheduler counted for
	// the daemon's process tree and for the clients' processes (the
	// bench's own, or its client processes) over the load.
	daemonSched, clientSched schedStat
	// idleCPUs is how many of the machine's CPUs were idle over the
	// load, on average (/proc/stat; NaN if unknown): near 0, the CPUs bound the rate;
	// well above, something other than CPU time does.
	idleCPUs float64
	// runnable is the machine's runnable tasks (procs_running) over
	// the load, the mean of samples every 20 ms, the bench's own
	// included: what a daemon shares the CPUs with.
	runnable float64
	// order is the order in which the daemon served its clients (see
	// serviceOrder).
	order serviceOrder
}

// procsRunning is /proc/stat's procs_running, or -1.
func procsRunning() int {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return -1
	}
	_, rest, ok := strings.Cut(string(b), "\nprocs_running ")
	if !ok {
		return -1
	}
	v, _, _ := strings.Cut(rest, "\n")
	n, err := strconv.Atoi(v)
	if err != nil {
		return -1
	}
	return n
}

// sampleRunnable samples procsRunning every 20 ms until stop is closed,
// then sends the mean.
func sampleRunnable(stop <-chan struct{}, mean chan<- float64) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	sum, n := 0, 0
	for {
		select {
		case <-stop:
			if n == 0 {
				mean <- 0
			} else {
				mean <- float64(sum) / float64(n)
			}
			return
		case <-tick.C:
			if r := procsRunning(); r >= 0 {
				sum += r
				n++
			}
		}
	}
}

// clockTick is the unit of /proc/PID/stat's CPU times, USER_HZ, which is
// 100 on every Linux that matters here.
const clockTick = 10 * time.Millisecond

// cpuTime is a process's user and system time, its threads' included,
// from /proc/PID/stat.
func cpuTime(t testing.TB, pid int) time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	// The fields after the command name, which is in parentheses.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * clockTick
}

// loadPMCD has n clients, each with its own pmapi context, fetch pmids
// from bed as fast as they can for d, and returns the round trips per
// second of all of them and every round trip's latency.
func loadPMCD(t testing.TB, bed *testbed.PMCD, pmids []pcp.PMID, n int, d time.Duration) pmcdRun {
	return loadPMCDCPU(t, bed, pmids, n, d, func() time.Duration { return cpuTime(t, bed.PID()) })
}

// loadPMCDCPU is loadPMCD with the CPU time counted by cpuOf, read just
// before the clients start fetching and just after they stop.
func loadPMCDCPU(t testing.TB, bed *testbed.PMCD, pmids []pcp.PMID, n int, d time.Duration, cpuOf func() time.Duration) pmcdRun {
	ctx := context.Background()
	ctxs := make([]*pmapi.HostContext, n)
	for i := range ctxs {
		c, err := pmapi.NewHostContext(ctx, bed.Host())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		var r pcp.Result
		if _, err := c.Fetch(ctx, pmids, &r); err != nil { // warm up
			t.Fatal(err)
		}
		ctxs[i] = c
	}
	load := clientsLoad{lats: make([][]time.Duration, n), others: make([][]int32, n)}
	var answered atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	var errOnce sync.Once
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
				a0 := answered.Load()
				if _, err := c.Fetch(ctx, pmids, &r); err != nil {
					errOnce.Do(func() { load.err = err })
					return
				}
				load.lats[i] = append(load.lats[i], time.Since(t0))
				load.others[i] = append(load.others[i], int32(answered.Add(1)-1-a0))
			}
		}()
	}
	return measureLoad(t, bed, cpuOf, []int{os.Getpid()}, func() clientsLoad {
		u0 := selfUsage()
		t0 := time.Now()
		close(start)
		wg.Wait()
		load.took = time.Since(t0)
		load.usage = selfUsage().sub(u0)
		return load
	})
}

// clientsLoad is what a load's clients did: how long they fetched, each
// client's round trips' latencies and the answers others received
// during each, their CPU and context switches over the load, and the
// first error that stopped one.
type clientsLoad struct {
	took   time.Duration
	lats   [][]time.Duration
	others [][]int32
	usage  clientUsage
	err    error
}

// clientUsage is what getrusage(2) counts for the clients: CPU time and
// context switches, voluntary (a wait for an answer) and involuntary
// (preempted while runnable).
type clientUsage struct {
	cpu           time.Duration
	nvcsw, nivcsw int64
}

func (u clientUsage) sub(o clientUsage) clientUsage {
	return clientUsage{cpu: u.cpu - o.cpu, nvcsw: u.nvcsw - o.nvcsw, nivcsw: u.nivcsw - o.nivcsw}
}

// selfUsage is the bench process's own clientUsage, its threads' summed.
func selfUsage() clientUsage {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return clientUsage{}
	}
	return clientUsage{cpu: time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nvcsw: ru.Nvcsw, nivcsw: ru.Nivcsw}
}

// measureLoad counts, around release, what the daemon (cpuOf, the
// scheduler's counts of bed's process tree), the clients (the scheduler's
// counts of the processes clients) and the machine (idle CPUs, runnable
// tasks) did; release starts the clients, which are ready to fetch, and
// returns what they did once they have all stopped.
func measureLoad(t testing.TB, bed *testbed.PMCD, cpuOf func() time.Duration, clients []int, release func() clientsLoad) pmcdRun {
	tree := processTree(bed.PID())
	ds0, cs0 := treeSched(tree), treeSched(clients)
	cpu0 := cpuOf()
	idle0, idle0OK := pmcd.MachineIdle()
	stopSampling, runnable := make(chan struct{}), make(chan float64)
	go sampleRunnable(stopSampling, runnable)
	load := release()
	idle1, idle1OK := pmcd.MachineIdle()
	// Unknown (NaN) where /proc/stat cannot be read or its idle time
	// went back (pmcd.MachineIdle).
	idleCPUs := math.NaN()
	if idle, ok := pmcd.IdleWindow(idle0, idle1); ok && idle0OK && idle1OK {
		idleCPUs = idle.Seconds() / load.took.Seconds()
	}
	close(stopSampling)
	meanRunnable := <-runnable
	cpu := cpuOf() - cpu0
	ds, cs := treeSched(tree).sub(ds0), treeSched(clients).sub(cs0)
	if load.err != nil {
		t.Fatal(load.err)
	}
	var all []time.Duration
	for _, l := range load.lats {
		all = append(all, l...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	run := pmcdRun{fetches: len(all), perSecond: float64(len(all)) / load.took.Seconds(), latencies: all,
		daemonSched: ds, clientSched: cs, idleCPUs: idleCPUs, runnable: meanRunnable,
		order: orderOf(load.others), clientUsage: load.usage}
	if len(all) > 0 {
		run.cpuPer = cpu / time.Duration(len(all))
		run.clientCPUPer = load.usage.cpu / time.Duration(len(all))
	}
	return run
}

func quantile(l []time.Duration, q float64) time.Duration {
	if len(l) == 0 {
		return 0
	}
	return l[min(len(l)-1, int(q*float64(len(l))))]
}

// rssKB is a process's resident set size from /proc/PID/status.
func rssKB(t testing.TB, pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.Fields(rest)[0])
			return n
		}
	}
	return 0
}

// TestPMCDSideBySide runs PCP's pmcd and ours with the same agents
// (their own pmcd agent, PCP's pmdasample on a pipe) and has the same Go
// client fetch the same metrics from each, with 1 and with 32 concurrent
// clients: round trips per second, latency median and p99, and the
// daemon's CPU time per round trip (its agents' not counted), the median
// of GOPCP_BENCH_ROUNDS rounds (3 by default) of 2 s each, daemons
// alternating; then each daemon's resident memory (GOPCP_BENCH=1). On a
// shared machine the CPU per fetch is the steadier figure: the rates move
// with whatever else runs.
func TestPMCDSideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the side-by-side benchmarks")
	}
	rounds := 3
	if n, err := strconv.Atoi(os.Getenv("GOPCP_BENCH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	theirs := testbed.StartPMCD(t, testbed.Options{})
	ours := testbed.StartGoPMCD(t, testbed.Options{})
	beds := []*testbed.PMCD{theirs, ours}

	var table strings.Builder
	table.WriteString("| metrics | clients | PCP fetches/s | gopcp fetches/s | ratio | PCP median µs | gopcp median µs | PCP p99 µs | gopcp p99 µs | PCP daemon CPU µs/fetch | gopcp daemon CPU µs/fetch | CPU ratio |\n" +
		"|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, set := range pmcdBenchSets {
		c, err := pmapi.NewHostContext(context.Background(), theirs.Host())
		if err != nil {
			t.Fatal(err)
		}
		pmids, err := c.LookupNames(context.Background(), set.names)
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, clients := range []int{1, 32} {
			var rate, med, p99, cpu [2][]float64
			for r := 0; r < rounds; r++ {
				for i, bed := range beds {
					run := loadPMCD(t, bed, pmids, clients, 2*time.Second)
					rate[i] = append(rate[i], run.perSecond)
					med[i] = append(med[i], float64(quantile(run.latencies, 0.5).Microseconds()))
					p99[i] = append(p99[i], float64(quantile(run.latencies, 0.99).Microseconds()))
					cpu[i] = append(cpu[i], float64(run.cpuPer.Nanoseconds())/1e3)
				}
			}
			m := func(v []float64) float64 {
				sort.Float64s(v)
				return v[len(v)/2]
			}
			t.Logf("%s, %d clients, each round: PCP %v fetches/s %v µs CPU, gopcp %v fetches/s %v µs CPU",
				set.name, clients, rounded(rate[0]), rounded(cpu[0]), rounded(rate[1]), rounded(cpu[1]))
			fmt.Fprintf(&table, "| %s | %d | %.0f | %.0f | %.2f | %.0f | %.0f | %.0f | %.0f | %.1f | %.1f | %.2f |\n",
				set.name, clients, m(rate[0]), m(rate[1]), m(rate[1])/m(rate[0]),
				m(med[0]), m(med[1]), m(p99[0]), m(p99[1]), m(cpu[0]), m(cpu[1]), m(cpu[0])/m(cpu[1]))
		}
	}
	pr, gr := rssKB(t, theirs.PID()), rssKB(t, ours.PID())
	fmt.Fprintf(&table, "\n| daemon RSS after the runs | PCP pmcd | gopcp pmcd | ratio |\n|---|---|---|---|\n| KiB | %d | %d | %.2f |\n",
		pr, gr, float64(gr)/float64(pr))
	t.Logf("ratio = gopcp fetches/s ÷ PCP fetches/s (above 1: gopcp faster); CPU ratio = PCP ÷ gopcp daemon CPU per fetch (above 1: gopcp cheaper); RSS ratio = gopcp ÷ PCP\n%s", table.String())
	if out := os.Getenv("GOPCP_BENCH_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(table.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// rounded is v with each figure rounded to a whole number, for the log.
func rounded(v []float64) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x + 0.5)
	}
	return out
}
