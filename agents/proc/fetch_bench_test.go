package proc

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// benchMetrics are a typical process report's metrics (pmrep's and
// pcp-ps's kind): twelve per-process metrics of four files and the count
// of processes.
var benchMetrics = []string{"proc.nprocs", "proc.psinfo.pid", "proc.psinfo.cmd", "proc.psinfo.psargs",
	"proc.psinfo.sname", "proc.psinfo.ppid", "proc.psinfo.utime", "proc.psinfo.stime",
	"proc.psinfo.rss", "proc.psinfo.vsize", "proc.memory.rss", "proc.memory.size",
	"proc.id.uid", "proc.io.rchar"}

// benchFetch makes the agent over a fixture tree of 100 processes (or
// the host's /proc for root ""), and the FETCH of benchMetrics, fetched
// once so that what follows is the steady state.
func benchFetch(tb testing.TB, root string) (*pmda.Agent, pdu.Message) {
	tb.Helper()
	return benchFetchOf(tb, root, benchMetrics)
}

// benchFetchOf is benchFetch of metrics.
func benchFetchOf(tb testing.TB, root string, metrics []string) (*pmda.Agent, pdu.Message) {
	tb.Helper()
	a := testAgent(tb, root)
	req := &pdu.Fetch{}
	for _, n := range metrics {
		id, err := a.LookupName(context.Background(), 1, n)
		if err != nil {
			tb.Fatalf("%s: %v", n, err)
		}
		req.PMIDs = append(req.PMIDs, id)
	}
	reply, err := a.Handle(context.Background(), 1, req)
	if err != nil {
		tb.Fatal(err)
	}
	for _, set := range reply.(*pdu.Result).Sets {
		if set.NumVal <= 0 {
			tb.Fatalf("%v: numval %d", set.PMID, set.NumVal)
		}
	}
	return a, req
}

// BenchmarkHandleFetch is one fetch of benchMetrics of every process
// through the agent's Handle, as pmcd makes it of an in-process agent:
// over a fixture tree of 100 processes (whose files do not change, so
// this is the agent's own cost) and over the host's /proc.
func BenchmarkHandleFetch(b *testing.B) {
	b.Run("fixture", func(b *testing.B) { benchHandleFetch(b, fixtureTree(b, 100)) })
	b.Run("host", func(b *testing.B) { benchHandleFetch(b, "") })
}

func benchHandleFetch(b *testing.B, root string) {
	a, msg := benchFetch(b, root)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Handle(ctx, 1, msg); err != nil {
			b.Fatal(err)
		}
	}
}

// benchCgroupMetrics are a typical cgroup v2 report's metrics: CPU time,
// memory, I/O and CPU pressure of every cgroup.
var benchCgroupMetrics = []string{"cgroup.cpu.stat.user", "cgroup.cpu.stat.system", "cgroup.cpu.stat.usage",
	"cgroup.memory.current", "cgroup.memory.stat.anon", "cgroup.memory.stat.file",
	"cgroup.io.stat.rbytes", "cgroup.io.stat.wbytes",
	"cgroup.pressure.cpu.some.avg10sec", "cgroup.pressure.cpu.some.total"}

// cgroupTree writes a cgroup2-only tree of n cgroups (groups of 10) with
// the usual files below a new directory, and returns its root.
func cgroupTree(tb testing.TB, n int) string {
	root := tb.TempDir()
	write := func(p, s string) {
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	write("proc/mounts", "cgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n")
	write("proc/diskstats", "8 0 sda 1 2 3 4\n")
	files := map[string]string{
		"cpu.stat":        "usage_usec 100\nuser_usec 60\nsystem_usec 40\nnr_periods 0\n",
		"memory.current":  "8192\n",
		"memory.stat":     "anon 1\nfile 2\nkernel_stack 3\nsock 4\nshmem 5\nfile_mapped 6\npgfault 7\npgmajfault 8\n",
		"io.stat":         "8:0 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=5 dios=6\n",
		"cpu.pressure":    "some avg10=0.00 avg60=0.00 avg300=0.00 total=1\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
		"io.pressure":     "some avg10=0.00 avg60=0.00 avg300=0.00 total=1\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
		"memory.pressure": "some avg10=0.00 avg60=0.00 avg300=0.00 total=1\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
	}
	for i := range n {
		for f, body := range files {
			write(fmt.Sprintf("sys/fs/cgroup/s%d/g%d/%s", i/10, i, f), body)
		}
	}
	return root
}

// BenchmarkHandleFetchCgroup is one fetch of benchCgroupMetrics through
// the proc agent's Handle over a cgroup2 tree of 100 cgroups: the
// cgroup source's refresh (its walk and files) and values.
func BenchmarkHandleFetchCgroup(b *testing.B) {
	a, msg := benchFetchOf(b, cgroupTree(b, 100), benchCgroupMetrics)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Handle(ctx, 1, msg); err != nil {
			b.Fatal(err)
		}
	}
}
