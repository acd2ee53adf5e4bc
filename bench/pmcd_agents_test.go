package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// agentCase is one pair of beds: PCP's pmcd with PCP's agent, ours with
// ours (or with PCP's, to see the relay alone).
type agentCase struct {
	name         string
	theirs, ours testbed.Options
	names        []string
}

// sampleNames are the sample metrics fetched, twelve values of several
// types, the set TestPMCDSideBySide fetches.
var sampleNames = pmcdBenchSets[0].names

// TestPMCDAgentsSideBySide is TestPMCDSideBySide with the agents' CPU
// and memory counted: the CPU per fetch of pmcd and every process under
// it, and their resident memory after the load, for
//
//   - "pipe, PCP's agent": PCP's pmdasample on a pipe under both daemons
//     (pmcd's relay alone differs);
//   - "pipe, own agent": PCP's pmcd with PCP's pmdasample against ours
//     with the Go sample agent (cmd/pmdasample) on a pipe;
//   - "in-process": PCP's pmcd with pmda_sample.so against ours with the
//     Go sample agent in-process (dso line, sample_init);
//   - "pmcd's own": each daemon's pmcd agent.
//
// Each round runs PCP's bed and then ours, alternating the order from
// one round to the next, GOPCP_BENCH_ROUNDS rounds (5 by default) of
// GOPCP_BENCH_SECONDS (2) each. It prints each round's ratios and their
// median, ours against PCP's: above 1 means ours is better for rate and
// CPU, memory is ours ÷ PCP's (read rssSettle after the load);
// GOPCP_BENCH_BEFORE is run on our daemon as TestPMCDAgentsLoad runs
// it. The
// clients' CPU per fetch and each round's time a fetch spent waiting for
// a CPU, by the daemon and by the clients, say how much of a rate is the
// client's and how much the machine's. GOPCP_BENCH_CLIENT=libpcp has the
// clients be processes on PCP's libpcp in place of the bench's
// goroutines (pmcdClients). GOPCP_BENCH_CASES picks cases by name
// (substrings separated by ";"), GOPCP_BENCH_CLIENTS the numbers of
// clients ("1;32" by default).
func TestPMCDAgentsSideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the side-by-side benchmarks")
	}
	rounds := 5
	if n, err := strconv.Atoi(os.Getenv("GOPCP_BENCH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	secs := 2.0
	if f, err := strconv.ParseFloat(os.Getenv("GOPCP_BENCH_SECONDS"), 64); err == nil && f > 0 {
		secs = f
	}
	cases := agentCases(t)
	fetchers := newPMCDClients(t)
	t.Logf("clients: %v", fetchers)
	counts := []int{1, 32}
	if v := os.Getenv("GOPCP_BENCH_CLIENTS"); v != "" {
		counts = nil
		for _, f := range strings.Split(v, ";") {
			n, err := strconv.Atoi(f)
			if err != nil || n < 1 {
				t.Fatalf("GOPCP_BENCH_CLIENTS: %q is not a number of clients", f)
			}
			counts = append(counts, n)
		}
	}
	var pick []string
	if v := os.Getenv("GOPCP_BENCH_CASES"); v != "" {
		pick = strings.Split(v, ";")
	}
	var table strings.Builder
	// p50 comes last, after the columns earlier tables have: with one
	// client the rate follows the slowest round trips, which the other
	// work on the machine makes, and the median shows the daemon's own.
	table.WriteString("| case | clients | rate ours/PCP | p99 ours/PCP | CPU/fetch PCP/ours | PCP CPU µs | ours CPU µs | RSS ours/PCP | PCP RSS KiB | ours RSS KiB | p50 ours/PCP | clients' CPU µs, PCP | clients' CPU µs, ours |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range cases {
		if len(pick) > 0 && !slicesContainsSub(pick, c.name) {
			continue
		}
		theirs := testbed.StartPMCD(t, c.theirs)
		ours := testbed.StartGoPMCD(t, c.ours)
		beds := []*testbed.PMCD{theirs, ours}
		runBefore(t, ours.PID())
		pids := [][]int{processTree(theirs.PID()), processTree(ours.PID())}
		t.Logf("%s: PCP's processes %v, ours %v", c.name, pids[0], pids[1])
		var ids [2][]pcp.PMID
		for i, bed := range beds {
			cx, err := pmapi.NewHostContext(context.Background(), bed.Host())
			if err != nil {
				t.Fatal(err)
			}
			ids[i], err = cx.LookupNames(context.Background(), c.names)
			cx.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
		for _, clients := range counts {
			var rate, p50, p99, cpu, ccpu, dwait, cwait, idle, runq, vcsw, ivcsw [2][]float64
			var rr, mr, pr, cr []float64
			var tails, orders [2][]string
			for r := 0; r < rounds; r++ {
				order := []int{0, 1}
				if r%2 == 1 {
					order = []int{1, 0}
				}
				var got [2]pmcdRun
				for _, i := range order {
					got[i] = fetchers.loadTree(t, beds[i], ids[i], c.names, clients, time.Duration(secs*float64(time.Second)))
				}
				for i := range 2 {
					rate[i] = append(rate[i], got[i].perSecond)
					p50[i] = append(p50[i], float64(quantile(got[i].latencies, 0.5).Nanoseconds())/1e3)
					p99[i] = append(p99[i], float64(quantile(got[i].latencies, 0.99).Microseconds()))
					cpu[i] = append(cpu[i], float64(got[i].cpuPer.Nanoseconds())/1e3)
					ccpu[i] = append(ccpu[i], float64(got[i].clientCPUPer.Nanoseconds())/1e3)
					dwait[i] = append(dwait[i], got[i].daemonSched.wait.Seconds()*1e6/float64(got[i].fetches))
					cwait[i] = append(cwait[i], got[i].clientSched.wait.Seconds()*1e6/float64(got[i].fetches))
					idle[i] = append(idle[i], got[i].idleCPUs)
					tails[i] = append(tails[i], tailOf(got[i].latencies))
					orders[i] = append(orders[i], got[i].order.String())
					runq[i] = append(runq[i], got[i].runnable)
					vcsw[i] = append(vcsw[i], float64(got[i].clientUsage.nvcsw)/float64(got[i].fetches))
					ivcsw[i] = append(ivcsw[i], float64(got[i].clientUsage.nivcsw)/float64(got[i].fetches))
				}
				rr = append(rr, got[1].perSecond/got[0].perSecond)
				mr = append(mr, float64(quantile(got[1].latencies, 0.5))/float64(quantile(got[0].latencies, 0.5)))
				pr = append(pr, float64(quantile(got[1].latencies, 0.99))/float64(quantile(got[0].latencies, 0.99)))
				cr = append(cr, float64(got[0].cpuPer)/float64(got[1].cpuPer))
			}
			t.Logf("%s, %d clients: µs a fetch waiting for a CPU, daemon PCP %v ours %v, clients with PCP %v with ours %v",
				c.name, clients, rounded1(dwait[0]), rounded1(dwait[1]), rounded1(cwait[0]), rounded1(cwait[1]))
			t.Logf("%s, %d clients: the clients' context switches a fetch, voluntary/involuntary, with PCP %v/%v with ours %v/%v",
				c.name, clients, rounded2(vcsw[0]), rounded2(ivcsw[0]), rounded2(vcsw[1]), rounded2(ivcsw[1]))
			t.Logf("%s, %d clients: the tail, µs by round, PCP %v ours %v", c.name, clients, tails[0], tails[1])
			t.Logf("%s, %d clients: the service order by round, others' answers while a request waited p50/p99/p99.9/max and a client's fetches min-max of the mean, PCP %v ours %v",
				c.name, clients, orders[0], orders[1])
			t.Logf("%s, %d clients: the machine's idle CPUs over the load, with PCP %v with ours %v; its runnable tasks, with PCP %v with ours %v",
				c.name, clients, rounded2(idle[0]), rounded2(idle[1]), rounded1(runq[0]), rounded1(runq[1]))
			t.Logf("%s, %d clients: rate PCP %v ours %v; p50 µs PCP %v ours %v; p99 µs PCP %v ours %v; CPU µs PCP %v ours %v; clients' CPU µs with PCP %v with ours %v; ratios rate %v p50 %v p99 %v CPU %v",
				c.name, clients, rounded(rate[0]), rounded(rate[1]), rounded1(p50[0]), rounded1(p50[1]), rounded(p99[0]), rounded(p99[1]),
				rounded1(cpu[0]), rounded1(cpu[1]), rounded1(ccpu[0]), rounded1(ccpu[1]), rounded2(rr), rounded2(mr), rounded2(pr), rounded2(cr))
			// Resident memory once both have settled after the
			// load (our pmcd hands back what its clients left when
			// the last one has gone, within idleFreeEvery).
			time.Sleep(rssSettle)
			pk, ok := treeRSS(t, theirs.PID()), treeRSS(t, ours.PID())
			t.Logf("%s, %d clients, KiB \"RSS (anonymous+file) PSS\": PCP's %s; ours %s",
				c.name, clients, treeMem(theirs.PID()), treeMem(ours.PID()))
			fmt.Fprintf(&table, "| %s | %d | %.2f | %.2f | %.2f | %.1f | %.1f | %.2f | %d | %d | %.2f | %.1f | %.1f |\n",
				c.name, clients, median(rr), median(pr), median(cr), median(cpu[0]), median(cpu[1]),
				float64(ok)/float64(pk), pk, ok, median(mr), median(ccpu[0]), median(ccpu[1]))
		}
		theirs.Close()
		ours.Close()
	}
	t.Logf("medians of the rounds' ratios; RSS of pmcd and its agents after the load\n%s", table.String())
	if out := os.Getenv("GOPCP_BENCH_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(table.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// runBefore runs GOPCP_BENCH_BEFORE, if set, with pid as its last
// argument, and logs what it said.
func runBefore(t *testing.T, pid int) {
	if v := strings.Fields(os.Getenv("GOPCP_BENCH_BEFORE")); len(v) > 0 {
		out, err := exec.Command(v[0], append(v[1:], strconv.Itoa(pid))...).CombinedOutput()
		t.Logf("%v: %s %v", v, out, err)
	}
}

// treeMem is each process's memory under pmcd pid, named, pmcd first.
func treeMem(pid int) string {
	var b strings.Builder
	for i, p := range processTree(pid) {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s", processName(p), readMem(p))
	}
	return b.String()
}

// rssSettle is how long after a load the resident memory is read.
const rssSettle = 2 * time.Second

// loadTree is loadPMCD with the CPU of pmcd and its agents counted in
// place of pmcd's alone.
func loadTree(t testing.TB, bed *testbed.PMCD, ids []pcp.PMID, n int, d time.Duration) pmcdRun {
	return loadPMCDCPU(t, bed, ids, n, d, func() time.Duration { return treeCPU(t, bed.PID()) })
}

// perfEvents are the events GOPCP_BENCH_PERF counts: CPU time (task-clock
// in ms, so per fetch in ms), context switches (each a sleep and its
// wake-up), system calls, and the futex, epoll and read/write calls among
// them.
const perfEvents = "task-clock,context-switches,cpu-migrations,raw_syscalls:sys_enter,syscalls:sys_enter_futex," +
	"syscalls:sys_enter_epoll_wait,syscalls:sys_enter_epoll_pwait,syscalls:sys_enter_epoll_ctl,syscalls:sys_enter_select," +
	"syscalls:sys_enter_pselect6,syscalls:sys_enter_read,syscalls:sys_enter_write,syscalls:sys_enter_nanosleep"

// processName is the command name of process pid, or "?".
func processName(pid int) string {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "comm"))
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(b))
}

// tailOf is the tail of sorted latencies, in µs: "p90/p99/p99.9/max".
func tailOf(l []time.Duration) string {
	us := func(d time.Duration) int64 { return d.Microseconds() }
	last := time.Duration(0)
	if len(l) > 0 {
		last = l[len(l)-1]
	}
	return fmt.Sprintf("%d/%d/%d/%d", us(quantile(l, 0.9)), us(quantile(l, 0.99)), us(quantile(l, 0.999)), us(last))
}

func rounded1(v []float64) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = strconv.FormatFloat(x, 'f', 1, 64)
	}
	return out
}

func rounded2(v []float64) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = strconv.FormatFloat(x, 'f', 2, 64)
	}
	return out
}

func slicesContainsSub(subs []string, s string) bool {
	for _, x := range subs {
		if x != "" && strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// agentCases are TestPMCDAgentsSideBySide's cases, with the Go sample
// agent built for them.
func agentCases(t *testing.T) []agentCase {
	// GOPCP_BENCH_AGENT, when set, is a Go sample agent already built
	// (another version or build, to compare with); else it is built
	// as README installs it, without cgo.
	goAgent := os.Getenv("GOPCP_BENCH_AGENT")
	if goAgent == "" {
		goAgent = pcptest.GoCommandWith(t, "../cmd/pmdasample", pcptest.Build{Env: []string{"CGO_ENABLED=0"}})
	}
	// GOPCP_BENCH_AGENT_ENV, NAME=value words, is the Go pipe agent's
	// environment beyond pmcd's, to try runtime settings with.
	goAgentArgv := []string{goAgent, "-d", "29"}
	if v := strings.Fields(os.Getenv("GOPCP_BENCH_AGENT_ENV")); len(v) > 0 {
		goAgentArgv = append(append([]string{"/usr/bin/env"}, v...), goAgentArgv...)
	}
	sampleRoot := "$PCP_PMDAS_DIR/sample/root"
	return []agentCase{
		{name: "pipe, PCP's agent", names: sampleNames,
			theirs: testbed.Options{}, ours: testbed.Options{}},
		{name: "pipe, own agent", names: sampleNames,
			theirs: testbed.Options{},
			ours: testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(),
				testbed.PipeAgent("sample", 29, sampleRoot, goAgentArgv...)}}},
		{name: "in-process", names: sampleNames,
			theirs: testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(),
				testbed.DSOAgent("sample", 29, "$PCP_PMDAS_DIR/sample/pmda_sample.so", "sample_init", sampleRoot)}},
			ours: testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(),
				testbed.GoDSOAgent("sample", 29, "sample_init", sampleRoot)}}},
		{name: "pmcd's own", names: pmcdBenchSets[1].names,
			theirs: testbed.Options{}, ours: testbed.Options{}},
	}
}

// TestPMCDAgentsLoad holds one side of one case of
// TestPMCDAgentsSideBySide under load, for a profiler to watch:
// GOPCP_BENCH_LOAD="case;side;clients;seconds", side "pcp" or "ours".
// It logs the daemon's process id and writes it to GOPCP_BENCH_PIDFILE
// if that is set, runs GOPCP_BENCH_BEFORE (a command, words separated by
// spaces) with that id as its last argument if that is set (to change
// the daemon's scheduling, say), then loads it and logs the figures,
// among them what the scheduler counted: time on a CPU and waiting for
// one, and turns on a CPU, per fetch, for the daemon and for the
// clients (the bench process, or with GOPCP_BENCH_CLIENT=libpcp its
// client processes).
func TestPMCDAgentsLoad(t *testing.T) {
	spec := strings.Split(os.Getenv("GOPCP_BENCH_LOAD"), ";")
	if os.Getenv("GOPCP_BENCH") != "1" || len(spec) != 4 {
		t.Skip(`GOPCP_BENCH=1 GOPCP_BENCH_LOAD="case;side;clients;seconds" holds a daemon under load`)
	}
	clients, err := strconv.Atoi(spec[2])
	if err != nil {
		t.Fatal(err)
	}
	secs, err := strconv.ParseFloat(spec[3], 64)
	if err != nil {
		t.Fatal(err)
	}
	fetchers := newPMCDClients(t)
	for _, c := range agentCases(t) {
		if c.name != spec[0] {
			continue
		}
		var bed *testbed.PMCD
		if spec[1] == "ours" {
			bed = testbed.StartGoPMCD(t, c.ours)
		} else {
			bed = testbed.StartPMCD(t, c.theirs)
		}
		cx, err := pmapi.NewHostContext(context.Background(), bed.Host())
		if err != nil {
			t.Fatal(err)
		}
		ids, err := cx.LookupNames(context.Background(), c.names)
		cx.Close()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("processes %v", processTree(bed.PID()))
		if f := os.Getenv("GOPCP_BENCH_PIDFILE"); f != "" {
			if err := os.WriteFile(f, []byte(strconv.Itoa(bed.PID())+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		runBefore(t, bed.PID())
		// perf stat counts each process's events over the load alone,
		// one perf per process so that pmcd and its agents are told
		// apart.
		type perfRun struct {
			pid int
			cmd *exec.Cmd
			out strings.Builder
		}
		var perfs []*perfRun
		if os.Getenv("GOPCP_BENCH_PERF") == "1" {
			for _, p := range processTree(bed.PID()) {
				pr := &perfRun{pid: p}
				pr.cmd = exec.Command("perf", "stat", "-x", ",", "-e", perfEvents, "-p", strconv.Itoa(p))
				pr.cmd.Stderr = &pr.out
				if err := pr.cmd.Start(); err != nil {
					t.Fatal(err)
				}
				perfs = append(perfs, pr)
			}
			time.Sleep(200 * time.Millisecond)
		}
		run := fetchers.loadTree(t, bed, ids, c.names, clients, time.Duration(secs*float64(time.Second)))
		for _, pr := range perfs {
			_ = pr.cmd.Process.Signal(os.Interrupt)
			_ = pr.cmd.Wait()
			var line strings.Builder
			for _, l := range strings.Split(pr.out.String(), "\n") {
				f := strings.Split(l, ",")
				if len(f) < 3 {
					continue
				}
				v, _ := strconv.ParseFloat(f[0], 64)
				name := strings.TrimPrefix(strings.TrimPrefix(f[2], "syscalls:sys_enter_"), "raw_syscalls:")
				if name == "task-clock" {
					// Milliseconds, as µs per fetch.
					name, v = "CPU-µs", v*1000
				}
				fmt.Fprintf(&line, " %s %.2f", name, v/float64(run.fetches))
			}
			t.Logf("perf, process %d (%s), per fetch:%s", pr.pid, processName(pr.pid), line.String())
		}
		t.Logf("%s, %s, %d clients: %.0f fetches/s, p50 %v, p99 %v, CPU %v per fetch, RSS %d KiB", c.name, spec[1], clients,
			run.perSecond, quantile(run.latencies, 0.5), quantile(run.latencies, 0.99), run.cpuPer, treeRSS(t, bed.PID()))
		t.Logf("service order: others' answers while a request waited p50/p99/p99.9/max, a client's fetches min-max of the mean: %v", run.order)
		perFetch := func(d time.Duration) float64 { return d.Seconds() * 1e6 / float64(run.fetches) }
		t.Logf("per fetch: daemon on a CPU %.1f µs, waiting for one %.1f µs, %.2f slices; clients on a CPU %.1f µs, waiting %.1f µs, %.2f slices",
			perFetch(run.daemonSched.run), perFetch(run.daemonSched.wait), float64(run.daemonSched.slices)/float64(run.fetches),
			perFetch(run.clientSched.run), perFetch(run.clientSched.wait), float64(run.clientSched.slices)/float64(run.fetches))
		t.Logf("%v: CPU %.1f µs a fetch, context switches a fetch voluntary %.2f involuntary %.2f", fetchers,
			run.clientCPUPer.Seconds()*1e6, float64(run.clientUsage.nvcsw)/float64(run.fetches), float64(run.clientUsage.nivcsw)/float64(run.fetches))
		time.Sleep(3 * time.Second)
		t.Logf("RSS 3 s after the load: %d KiB", treeRSS(t, bed.PID()))
		return
	}
	t.Fatalf("no case %q", spec[0])
}
