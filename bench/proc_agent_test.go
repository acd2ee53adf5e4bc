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

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// procFetchLoop fetches pmids through bed's Unix socket (where the
// agents serve per-process values) for about d, returning fetches done,
// the agent's CPU ticks and the values one fetch returned.
func procFetchLoop(t testing.TB, bed *testbed.PMCD, pmids []pcp.PMID, d time.Duration) (n int, ticks int64, values int) {
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
	for _, s := range r.Sets {
		values += max(int(s.NumVal), 0)
	}
	_, before := agentCPU(t, bed.PID(), "pmdaproc")
	for start := time.Now(); time.Since(start) < d || n < 3; n++ {
		if _, err := c.Fetch(ctx, pmids, &r); err != nil {
			t.Fatal(err)
		}
	}
	_, after := agentCPU(t, bed.PID(), "pmdaproc")
	last := 0
	for _, s := range r.Sets {
		last += max(int(s.NumVal), 0)
	}
	if last != values {
		t.Logf("the last fetch had %d values, the first %d", last, values)
	}
	return n, after - before, values
}

// procTree writes a fixture /proc of n processes under dir/proc, each
// with the files psinfo and memory read.
func procTree(t testing.TB, dir string, n int) {
	for pid := 1000; pid < 1000+n; pid++ {
		d := filepath.Join(dir, "proc", strconv.Itoa(pid))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		files := map[string]string{
			"cmdline": fmt.Sprintf("/usr/bin/prog%d\x00-x\x00", pid),
			"stat": fmt.Sprintf("%d (prog%d) S 1 %d %d 0 -1 4194560 %d 0 0 0 %d %d 0 0 20 0 1 0 %d %d %d 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 17 %d 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
				pid, pid, pid, pid, pid*3, pid*5, pid*7, pid*100, pid*4096, pid*11, pid%2),
			"status": fmt.Sprintf("Name:\tprog%d\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t1\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nVmPeak:\t    %d kB\nVmSize:\t    %d kB\nVmRSS:\t    %d kB\nVmSwap:\t       0 kB\nThreads:\t1\nSigPnd:\t0000000000000000\nSigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\nSigCgt:\t0000000000000000\nCpus_allowed_list:\t0-1\nvoluntary_ctxt_switches:\t%d\nnonvoluntary_ctxt_switches:\t2\n",
				pid, pid, pid, pid*2, pid*2, pid, pid*13),
			"statm":     fmt.Sprintf("%d %d 10 5 0 20 0\n", pid*2, pid),
			"maps":      "00400000-00452000 r-xp 00000000 08:02 173521 /usr/bin/prog\n",
			"schedstat": fmt.Sprintf("%d %d %d\n", pid*1000, pid*10, pid),
			"wchan":     "do_select",
		}
		for name, body := range files {
			if err := os.WriteFile(filepath.Join(d, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestProcAgentSideBySide fetches every proc.psinfo.* and proc.memory.*
// metric of every process, through one pmapi client on each pmcd's Unix
// socket, from PCP's pmcd running PCP's pmdaproc and from PCP's pmcd
// running ours (cmd/pmdaproc), on the host's /proc and on a fixture tree
// of 10,000 processes (PROC_STATSPATH, which both agents honour), and
// reports each agent's CPU time per fetch (GOPCP_BENCH=1;
// GOPCP_BENCH_ROUNDS rounds, median).
func TestProcAgentSideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the side-by-side benchmarks")
	}
	rounds := 3
	if n, err := strconv.Atoi(os.Getenv("GOPCP_BENCH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	bin := pcptest.GoCommand(t, "../cmd/pmdaproc")
	tree := t.TempDir()
	procTree(t, tree, 10000)
	const root = "$PCP_VAR_DIR/pmns/root_proc"
	table := "| case | PCP pmdaproc CPU ms/fetch | gopcp pmdaproc CPU ms/fetch | ratio |\n|---|---|---|---|\n"
	for _, tc := range []struct {
		name string
		env  []string
	}{{"host /proc", nil}, {"fixture, 10,000 processes", []string{"PROC_STATSPATH=" + tree}}} {
		theirs := testbed.StartPMCD(t, testbed.Options{Env: tc.env, Agents: []testbed.Agent{testbed.PMCDAgent(),
			testbed.PipeAgent("proc", 3, root, "$PCP_PMDAS_DIR/proc/pmdaproc", "-d", "3")}})
		ours := testbed.StartPMCD(t, testbed.Options{Env: tc.env, Agents: []testbed.Agent{testbed.PMCDAgent(),
			testbed.PipeAgent("proc", 3, root, bin, "-d", "3")}})
		c, err := pmapi.NewHostContext(context.Background(), "unix:"+theirs.SocketPath())
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, top := range []string{"proc.psinfo", "proc.memory"} {
			n, err := c.Traverse(context.Background(), top)
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, n...)
		}
		pmids, err := c.LookupNames(context.Background(), names)
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		hz := 100.0
		var pcpMS, goMS []float64
		var pcpValues, goValues int
		for i := 0; i < rounds; i++ {
			n, ticks, v := procFetchLoop(t, theirs, pmids, 5*time.Second)
			pcpMS = append(pcpMS, float64(ticks)/hz*1000/float64(n))
			pcpValues = v
			n, ticks, v = procFetchLoop(t, ours, pmids, 5*time.Second)
			goMS = append(goMS, float64(ticks)/hz*1000/float64(n))
			goValues = v
		}
		sort.Float64s(pcpMS)
		sort.Float64s(goMS)
		p, g := pcpMS[len(pcpMS)/2], goMS[len(goMS)/2]
		t.Logf("%s: rounds: PCP %v ms, ours %v ms", tc.name, pcpMS, goMS)
		table += fmt.Sprintf("| %s: %d metrics (PCP %d values, ours %d) | %.2f | %.2f | %.2f |\n",
			tc.name, len(pmids), pcpValues, goValues, p, g, p/g)
	}
	t.Logf("\n%s", strings.TrimSpace(table))
	if out := os.Getenv("GOPCP_BENCH_OUT"); out != "" {
		os.WriteFile(out, []byte(table), 0o644)
	}
}
