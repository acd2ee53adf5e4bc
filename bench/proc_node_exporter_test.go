package bench

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// nodeSeries scrapes ne once and returns its node_processes_* series by
// their text (name and labels).
func nodeSeries(t testing.TB, ne *nodeExporter) map[string]float64 {
	resp, err := http.Get(ne.url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	m := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		name, val, ok := strings.Cut(sc.Text(), " ")
		if !ok || !strings.HasPrefix(name, "node_processes_") {
			continue
		}
		if v, err := strconv.ParseFloat(val, 64); err == nil {
			m[name] = v
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}

// procCounts fetches pmids once through bed's Unix socket and returns,
// per metric name, the sum of its values (so proc.psinfo.threads is the
// host's thread count).
func procCounts(t testing.TB, bed *testbed.PMCD, names []string, pmids []pcp.PMID) map[string]int64 {
	ctx := context.Background()
	c, err := pmapi.NewHostContext(ctx, "unix:"+bed.SocketPath())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var r pcp.Result
	if _, err := c.Fetch(ctx, pmids, &r); err != nil {
		t.Fatal(err)
	}
	m := map[string]int64{}
	for i, s := range r.Sets {
		for _, v := range s.Values {
			if s.ValFmt == pcp.ValInSitu {
				m[names[i]] += int64(uint32(v.LVal))
			}
		}
	}
	return m
}

// nodeTree adds to a fixture tree of procTree what node_exporter's
// processes collector also reads: each process's one thread
// (task/PID/stat) and the kernel's limits.
func nodeTree(t testing.TB, dir string, n int) {
	for pid := 1000; pid < 1000+n; pid++ {
		d := filepath.Join(dir, "proc", strconv.Itoa(pid))
		stat, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil {
			t.Fatal(err)
		}
		task := filepath.Join(d, "task", strconv.Itoa(pid))
		if err := os.MkdirAll(task, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(task, "stat"), stat, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	k := filepath.Join(dir, "proc", "sys", "kernel")
	if err := os.MkdirAll(k, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]string{"pid_max": "4194304\n", "threads-max": "192731\n"} {
		if err := os.WriteFile(filepath.Join(k, name), []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestProcNodeExporter compares the CPU time of node_exporter's
// processes collector per scrape with that of PCP's pmdaproc and of ours
// (cmd/pmdaproc), each under PCP's pmcd, per fetch of the metrics that
// give the same facts: the number of processes (proc.nprocs) and of
// processes in each state (proc.runq.*), and, as a second case, the
// number of threads (proc.psinfo.threads of every process, summed by the
// client). node_exporter's collector reads every process's stat and
// every thread's; the agents read every process's stat (and for
// proc.nprocs list /proc). On the host's /proc and on a fixture tree of
// 10,000 processes (--path.procfs, PROC_STATSPATH); one loop of about
// 5 s per side per round, in one run (GOPCP_BENCH=1;
// GOPCP_BENCH_ROUNDS rounds, median). CPU is the exporter's and the
// agent's, and pmcd's beside the agent's.
func TestProcNodeExporter(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the side-by-side benchmarks")
	}
	bin := nodeExporterPath()
	if bin == "" {
		t.Skip("no prometheus-node-exporter (bench/node_exporter.sh installs it)")
	}
	rounds := 3
	if n, err := strconv.Atoi(os.Getenv("GOPCP_BENCH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	agentBin := pcptest.GoCommand(t, "../cmd/pmdaproc")
	tree := t.TempDir()
	procTree(t, tree, 10000)
	nodeTree(t, tree, 10000)
	table := "| source | side | what | CPU ms per scrape/fetch | node_exporter ÷ this | with pmcd | node_exporter ÷ that |\n|---|---|---|---|---|---|---|\n"
	for _, src := range []struct {
		name string
		env  []string
		args []string
	}{
		{"host /proc", nil, nil},
		{"fixture, 10,000 processes", []string{"PROC_STATSPATH=" + tree}, []string{"--path.procfs=" + filepath.Join(tree, "proc")}},
	} {
		table += procNodeSource(t, bin, agentBin, src.name, src.env, src.args, rounds)
	}
	t.Logf("\n%s", strings.TrimSpace(table))
	if out := os.Getenv("GOPCP_BENCH_OUT"); out != "" {
		os.WriteFile(out, []byte(table), 0o644)
	}
}

// procNodeSource measures the three sides on one source of processes
// and returns its rows of the table.
func procNodeSource(t *testing.T, bin, agentBin, source string, env, nodeArgs []string, rounds int) string {
	const loop = 5 * time.Second
	const root = "$PCP_VAR_DIR/pmns/root_proc"
	ne := startNodeExporter(t, bin, []string{"processes"}, nodeArgs...)
	theirs := testbed.StartPMCD(t, testbed.Options{Env: env, Agents: []testbed.Agent{testbed.PMCDAgent(),
		testbed.PipeAgent("proc", 3, root, "$PCP_PMDAS_DIR/proc/pmdaproc", "-d", "3")}})
	ours := testbed.StartPMCD(t, testbed.Options{Env: env, Agents: []testbed.Agent{testbed.PMCDAgent(),
		testbed.PipeAgent("proc", 3, root, agentBin, "-d", "3")}})

	c, err := pmapi.NewHostContext(context.Background(), "unix:"+theirs.SocketPath())
	if err != nil {
		t.Fatal(err)
	}
	runq, err := c.Traverse(context.Background(), "proc.runq")
	if err != nil {
		t.Fatal(err)
	}
	counts := append([]string{"proc.nprocs"}, runq...)
	withThreads := append(append([]string(nil), counts...), "proc.psinfo.threads")
	cases := []struct {
		what  string
		names []string
		pmids []pcp.PMID
	}{{"process counts by state", counts, nil}, {"… and threads", withThreads, nil}}
	for i := range cases {
		if cases[i].pmids, err = c.LookupNames(context.Background(), cases[i].names); err != nil {
			t.Fatal(err)
		}
	}
	c.Close()

	// The facts side by side, once (on the host they move between reads).
	node := nodeSeries(t, ne)
	if _, ok := node["node_processes_pids"]; !ok {
		t.Fatalf("%s: node_exporter's processes collector gave nothing: %v", source, node)
	}
	t.Logf("%s: node_exporter: %v", source, node)
	t.Logf("%s: PCP pmdaproc: %v", source, procCounts(t, theirs, withThreads, cases[1].pmids))
	t.Logf("%s: gopcp pmdaproc: %v", source, procCounts(t, ours, withThreads, cases[1].pmids))

	const hz = 100.0 // USER_HZ, the unit of /proc/PID/stat's times
	ms := func(ticks int64, n int) float64 { return float64(ticks) / hz * 1000 / float64(n) }
	med := func(x []float64) float64 { x = append([]float64(nil), x...); sort.Float64s(x); return x[len(x)/2] }
	var nodeMS []float64
	pcpMS, goMS := make([][]float64, len(cases)), make([][]float64, len(cases))
	pcpAll, goAll := make([][]float64, len(cases)), make([][]float64, len(cases))
	values := make([][2]int, len(cases))
	for range rounds {
		before, n := procCPU(t, ne.cmd.Process.Pid), 0
		for start := time.Now(); time.Since(start) < loop || n < 3; n++ {
			if _, err := ne.scrape(); err != nil {
				t.Fatal(err)
			}
		}
		nodeMS = append(nodeMS, ms(procCPU(t, ne.cmd.Process.Pid)-before, n))
		for i, tc := range cases {
			p0 := procCPU(t, theirs.PID())
			n, ticks, v := procFetchLoop(t, theirs, tc.pmids, loop)
			pcpMS[i] = append(pcpMS[i], ms(ticks, n))
			pcpAll[i] = append(pcpAll[i], ms(ticks+procCPU(t, theirs.PID())-p0, n))
			values[i][0] = v
			p0 = procCPU(t, ours.PID())
			n, ticks, v = procFetchLoop(t, ours, tc.pmids, loop)
			goMS[i] = append(goMS[i], ms(ticks, n))
			goAll[i] = append(goAll[i], ms(ticks+procCPU(t, ours.PID())-p0, n))
			values[i][1] = v
		}
	}
	t.Logf("%s: %d rounds of %v: node_exporter %v ms; PCP %v ms; ours %v ms", source, rounds, loop, nodeMS, pcpMS, goMS)
	nm := med(nodeMS)
	rows := fmt.Sprintf("| %s | node_exporter processes | %d processes, %d threads: counts by state of each, pids, limits | %.3f | 1.00 | | |\n",
		source, int(node["node_processes_pids"]), int(node["node_processes_threads"]), nm)
	for i, tc := range cases {
		p, g, pa, ga := med(pcpMS[i]), med(goMS[i]), med(pcpAll[i]), med(goAll[i])
		rows += fmt.Sprintf("| %s | PCP pmdaproc | %s: %d metrics, %d values | %.3f | %.2f | %.3f | %.2f |\n",
			source, tc.what, len(tc.names), values[i][0], p, nm/p, pa, nm/pa)
		rows += fmt.Sprintf("| %s | gopcp pmdaproc | %s: %d metrics, %d values | %.3f | %.2f | %.3f | %.2f |\n",
			source, tc.what, len(tc.names), values[i][1], g, nm/g, ga, nm/ga)
	}
	return rows
}
