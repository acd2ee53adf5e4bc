package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/agents/linux"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// nodeCollectors are the node_exporter collectors whose figures the Linux
// agent also serves; nodeFamilies are the agent's metrics for the same
// sources, so both sides read the same /proc and /sys files.
var nodeCollectors = []string{
	"cpu", "diskstats", "filesystem", "loadavg", "meminfo",
	"netdev", "netstat", "stat", "uname", "vmstat",
}

var nodeFamilies = []string{
	"kernel.all.cpu.", "kernel.percpu.cpu.", "kernel.all.load",
	"kernel.all.intr", "kernel.all.pswitch", "kernel.all.sysfork",
	"kernel.all.running", "kernel.all.blocked", "kernel.all.boottime",
	"disk.dev.", "filesys.", "mem.util.", "mem.vmstat.",
	"network.interface.in.", "network.interface.out.", "network.interface.total.",
	"network.ip.", "network.icmp.", "network.tcp.", "network.udp.",
	"network.ip6.", "network.icmp6.", "network.udp6.",
	"kernel.uname.",
}

// nodeBenchNames are our metrics of nodeFamilies.
func nodeBenchNames() []string {
	var names []string
	for _, n := range linux.Names() {
		for _, f := range nodeFamilies {
			if strings.HasPrefix(n, f) {
				names = append(names, n)
				break
			}
		}
	}
	return names
}

// nodeExporterPath finds Debian's prometheus-node-exporter (or an
// upstream node_exporter), or GOPCP_NODE_EXPORTER.
func nodeExporterPath() string {
	if p := os.Getenv("GOPCP_NODE_EXPORTER"); p != "" {
		return p
	}
	for _, n := range []string{"prometheus-node-exporter", "node_exporter"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// procCPU returns the user+system CPU time of pid in clock ticks.
func procCPU(t testing.TB, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return ut + st
}

// nodeExporter is a private node_exporter on a loopback port.
type nodeExporter struct {
	cmd *exec.Cmd
	url string
}

// startNodeExporter starts bin with only the given collectors, and the
// extra options.
func startNodeExporter(t testing.TB, bin string, collectors []string, extra ...string) *nodeExporter {
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	args := []string{
		fmt.Sprintf("--web.listen-address=127.0.0.1:%d", port),
		"--collector.disable-defaults",
	}
	args = append(args, extra...)
	for _, c := range collectors {
		args = append(args, "--collector."+c)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	ne := &nodeExporter{cmd: cmd, url: fmt.Sprintf("http://127.0.0.1:%d/metrics", port)}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := ne.scrape(); err == nil {
			return ne
		} else if time.Now().After(deadline) {
			t.Fatalf("node_exporter not answering: %v", err)
		}
		time.Sleep(20 * time.Millisecond) // polling the port: there is no readiness signal
	}
}

// scrapeStats are the figures of one scrape: the series of the
// collectors (node_*) and the exporter's count of its own allocations.
type scrapeStats struct {
	series  int
	mallocs float64
}

func (ne *nodeExporter) scrape() (scrapeStats, error) {
	var st scrapeStats
	resp, err := http.Get(ne.url)
	if err != nil {
		return st, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return st, fmt.Errorf("%s: %s", ne.url, resp.Status)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "node_") && !strings.HasPrefix(line, "node_scrape_collector_"):
			st.series++
		case strings.HasPrefix(line, "go_memstats_mallocs_total "):
			st.mallocs, _ = strconv.ParseFloat(line[len("go_memstats_mallocs_total "):], 64)
		}
	}
	return st, sc.Err()
}

// fetchN fetches pmids n times from bed, returning the CPU ticks of the
// agent (comm under pmcd) and of pmcd itself, and the values per fetch.
func fetchN(t testing.TB, bed *testbed.PMCD, pmids []pcp.PMID, n int) (agent, pmcd int64, values int) {
	ctx := context.Background()
	c, err := pmapi.NewHostContext(ctx, bed.Host())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var r pcp.Result
	if _, err := c.Fetch(ctx, pmids, &r); err != nil { // warm up
		t.Fatal(err)
	}
	for _, s := range r.Sets {
		values += max(int(s.NumVal), 0)
	}
	pid, a0 := agentCPU(t, bed.PID(), "pmdalinux")
	p0 := procCPU(t, bed.PID())
	for i := 0; i < n; i++ {
		if _, err := c.Fetch(ctx, pmids, &r); err != nil {
			t.Fatal(err)
		}
	}
	return procCPU(t, pid) - a0, procCPU(t, bed.PID()) - p0, values
}

// TestLinuxNodeExporter compares, for the families both serve, the CPU time
// of Prometheus's node_exporter per scrape with that of PCP's pmdalinux and
// of ours per fetch (each agent under PCP's pmcd, fetched by one pmapi
// client), the same number of times each, in one run (GOPCP_BENCH=1;
// GOPCP_BENCH_ROUNDS rounds, median; GOPCP_BENCH_FETCHES per round).
func TestLinuxNodeExporter(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the side-by-side benchmarks")
	}
	bin := nodeExporterPath()
	if bin == "" {
		t.Skip("no prometheus-node-exporter (bench/node_exporter.sh installs it)")
	}
	rounds, per := 3, 500
	if n, err := strconv.Atoi(os.Getenv("GOPCP_BENCH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	if n, err := strconv.Atoi(os.Getenv("GOPCP_BENCH_FETCHES")); err == nil && n > 0 {
		per = n
	}
	ne := startNodeExporter(t, bin, nodeCollectors)
	theirs := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), testbed.LinuxAgent()}})
	pmns := filepath.Join(theirs.Install().Var("PCP_VAR_DIR"), "pmns", "root_linux")
	agentBin := pcptest.GoCommand(t, "../cmd/pmdalinux")
	ours := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(), testbed.PipeAgent("linux", linux.Domain, pmns, agentBin, "-d", "60"),
	}})
	names := nodeBenchNames()
	c, err := pmapi.NewHostContext(context.Background(), theirs.Host())
	if err != nil {
		t.Fatal(err)
	}
	pmids, err := c.LookupNames(context.Background(), names)
	c.Close()
	if err != nil {
		t.Fatal(err)
	}

	const hz = 100.0 // USER_HZ, the unit of /proc/PID/stat's times
	ms := func(ticks int64) float64 { return float64(ticks) / hz * 1000 / float64(per) }
	var nodeMS, pcpMS, goMS, pcpPMCD, goPMCD, nodeAllocs []float64
	var series, pcpValues, goValues int
	for i := 0; i < rounds; i++ {
		first, err := ne.scrape()
		if err != nil {
			t.Fatal(err)
		}
		series = first.series
		before := procCPU(t, ne.cmd.Process.Pid)
		var last scrapeStats
		for j := 0; j < per; j++ {
			if last, err = ne.scrape(); err != nil {
				t.Fatal(err)
			}
		}
		nodeMS = append(nodeMS, ms(procCPU(t, ne.cmd.Process.Pid)-before))
		nodeAllocs = append(nodeAllocs, (last.mallocs-first.mallocs)/float64(per))

		a, p, v := fetchN(t, theirs, pmids, per)
		pcpMS, pcpPMCD, pcpValues = append(pcpMS, ms(a)), append(pcpPMCD, ms(a+p)), v
		a, p, v = fetchN(t, ours, pmids, per)
		goMS, goPMCD, goValues = append(goMS, ms(a)), append(goPMCD, ms(a+p)), v
	}
	allocs, bytes := ourFetchAllocs(t, pmids)
	med := func(x []float64) float64 { sort.Float64s(x); return x[len(x)/2] }
	n, p, g := med(nodeMS), med(pcpMS), med(goMS)
	np, gp := med(pcpPMCD), med(goPMCD)
	table := fmt.Sprintf("| side | what | CPU ms per scrape/fetch | node_exporter ÷ this | allocs per scrape/fetch |\n"+
		"|---|---|---|---|---|\n"+
		"| node_exporter %s | %d node_* series | %.3f | 1.00 | %.0f |\n"+
		"| PCP pmdalinux | %d metrics, %d values | %.3f | %.2f | (C) |\n"+
		"| gopcp pmdalinux | %d metrics, %d values | %.3f | %.2f | %d (%d B) |\n"+
		"| PCP pmcd + PCP pmdalinux | same | %.3f | %.2f | |\n"+
		"| PCP pmcd + gopcp pmdalinux | same | %.3f | %.2f | |\n",
		strings.Join(nodeCollectors, ","), series, n, med(nodeAllocs),
		len(pmids), pcpValues, p, n/p,
		len(pmids), goValues, g, n/g, allocs, bytes,
		np, n/np, gp, n/gp)
	t.Logf("%d rounds of %d: node_exporter %v ms, PCP %v ms, ours %v ms\n%s", rounds, per, nodeMS, pcpMS, goMS, table)
	if out := os.Getenv("GOPCP_BENCH_OUT"); out != "" {
		os.WriteFile(out, []byte(table), 0o644)
	}
}
