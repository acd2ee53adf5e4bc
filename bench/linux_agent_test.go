package bench

import (
	"context"
	"fmt"
	"os"
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
	"github.com/gopcp/gopcp/pmda"
)

// linuxBenchNames are the metrics both Linux agents serve with values:
// every one ours exports except those PCP's agent cannot read as the
// unprivileged user pmcd starts it as.
func linuxBenchNames() []string {
	var names []string
	for _, n := range linux.Names() {
		if strings.HasPrefix(n, "mem.slabinfo.") || strings.HasPrefix(n, "tty.serial.") {
			continue
		}
		names = append(names, n)
	}
	return names
}

// agentCPU returns the user+system CPU time, in clock ticks, of the
// child of pmcd (pid) whose command name is comm.
func agentCPU(t testing.TB, pmcd int, comm string) (pid int, ticks int64) {
	t.Helper()
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < 0 || s[open+1:end] != comm {
			continue
		}
		f := strings.Fields(s[end+2:])
		// state ppid ... utime is the 12th field after the name, stime the 13th.
		if len(f) < 13 {
			continue
		}
		if ppid, _ := strconv.Atoi(f[1]); ppid != pmcd {
			continue
		}
		ut, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		return p, ut + st
	}
	t.Fatalf("no %s under pmcd %d", comm, pmcd)
	return 0, 0
}

// fetchLoop fetches pmids from bed for about d, returning fetches done,
// the agent's CPU ticks spent and the values one fetch returned.
func fetchLoop(t testing.TB, bed *testbed.PMCD, pmids []pcp.PMID, d time.Duration) (n int, ticks int64, values int) {
	ctx := context.Background()
	c, err := pmapi.NewHostContext(ctx, bed.Host())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var r pcp.Result
	if _, err := c.Fetch(ctx, pmids, &r); err != nil { // warm up: buffers, instance caches
		t.Fatal(err)
	}
	for _, s := range r.Sets {
		values += max(int(s.NumVal), 0)
	}
	_, before := agentCPU(t, bed.PID(), "pmdalinux")
	for start := time.Now(); time.Since(start) < d; n++ {
		if _, err := c.Fetch(ctx, pmids, &r); err != nil {
			t.Fatal(err)
		}
	}
	_, after := agentCPU(t, bed.PID(), "pmdalinux")
	return n, after - before, values
}

// TestLinuxAgentSideBySide fetches every metric both agents serve, through
// one pmapi client, from PCP's pmcd running PCP's pmdalinux and from PCP's
// pmcd running ours, and reports the agent's CPU time per fetch (from
// /proc/PID/stat) for each, and our agent's allocations per fetch
// measured in-process (GOPCP_BENCH=1; GOPCP_BENCH_ROUNDS rounds, median).
func TestLinuxAgentSideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the side-by-side benchmarks")
	}
	rounds := 3
	if n, err := strconv.Atoi(os.Getenv("GOPCP_BENCH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	theirs := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), testbed.LinuxAgent()}})
	pmns := filepath.Join(theirs.Install().Var("PCP_VAR_DIR"), "pmns", "root_linux")
	bin := pcptest.GoCommand(t, "../cmd/pmdalinux")
	ours := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(), testbed.PipeAgent("linux", linux.Domain, pmns, bin, "-d", "60"),
	}})
	names := linuxBenchNames()
	c, err := pmapi.NewHostContext(context.Background(), theirs.Host())
	if err != nil {
		t.Fatal(err)
	}
	pmids, err := c.LookupNames(context.Background(), names)
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	hz := 100.0 // USER_HZ, the unit of /proc/PID/stat's times
	var pcpMS, goMS []float64
	var pcpValues, goValues int
	for i := 0; i < rounds; i++ {
		n, ticks, v := fetchLoop(t, theirs, pmids, 3*time.Second)
		pcpMS = append(pcpMS, float64(ticks)/hz*1000/float64(n))
		pcpValues = v
		n, ticks, v = fetchLoop(t, ours, pmids, 3*time.Second)
		goMS = append(goMS, float64(ticks)/hz*1000/float64(n))
		goValues = v
	}
	allocs, bytes := ourFetchAllocs(t, pmids)
	sort.Float64s(pcpMS)
	sort.Float64s(goMS)
	p, g := pcpMS[len(pcpMS)/2], goMS[len(goMS)/2]
	table := fmt.Sprintf("| case | PCP pmdalinux CPU ms/fetch | gopcp pmdalinux CPU ms/fetch | ratio | gopcp allocs (bytes)/fetch |\n"+
		"|---|---|---|---|---|\n"+
		"| fetch %d metrics (PCP %d values, ours %d) | %.3f | %.3f | %.2f | %d (%d) |\n",
		len(pmids), pcpValues, goValues, p, g, p/g, allocs, bytes)
	t.Logf("rounds: PCP %v ms, ours %v ms\n%s", pcpMS, goMS, table)
	if out := os.Getenv("GOPCP_BENCH_OUT"); out != "" {
		os.WriteFile(out, []byte(table), 0o644)
	}
}

// ourFetchAllocs measures, in-process, the allocations of one steady
// fetch of pmids by our agent.
func ourFetchAllocs(t testing.TB, pmids []pcp.PMID) (int64, int64) {
	a, err := linux.New(linux.Domain, linux.Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ids := make([]pcp.PMID, len(pmids))
	for i, id := range pmids {
		ids[i] = pcp.NewPMID(linux.Domain, id.Cluster(), id.Item())
	}
	for range 5 { // the first fetches size the agent's buffers
		if _, err := a.Fetch(ctx, pmda.Client(0), ids); err != nil {
			t.Fatal(err)
		}
	}
	res := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := a.Fetch(ctx, pmda.Client(0), ids); err != nil {
				b.Fatal(err)
			}
		}
	})
	return res.AllocsPerOp(), res.AllocedBytesPerOp()
}
