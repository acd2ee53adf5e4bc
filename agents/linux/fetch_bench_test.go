package linux

import (
	"context"
	"testing"

	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// benchMetrics are a typical system report's metrics (pmstat's and
// pcp-dstat's kind): load, CPU, memory, swap, disks and network
// interfaces, of seven sources.
var benchMetrics = []string{"kernel.all.load", "kernel.all.cpu.user", "kernel.all.cpu.sys",
	"kernel.all.cpu.idle", "kernel.all.cpu.wait.total", "kernel.all.intr", "kernel.all.pswitch",
	"kernel.percpu.cpu.user", "kernel.percpu.cpu.sys", "mem.util.free", "mem.util.bufmem",
	"mem.util.cached", "mem.util.used", "swap.pagesin", "swap.pagesout", "disk.all.read",
	"disk.all.write", "disk.dev.read_bytes", "disk.dev.write_bytes",
	"network.interface.in.bytes", "network.interface.out.bytes", "hinv.ncpu", "mem.physmem"}

// benchFetch makes the agent over this host and the FETCH of
// benchMetrics, fetched once so that what follows is the steady state.
func benchFetch(tb testing.TB) (*pmda.Agent, pdu.Message) {
	tb.Helper()
	return benchFetchWith(tb, Options{CacheDir: tb.TempDir()})
}

// benchFetchWith is benchFetch for an agent made with opts.
func benchFetchWith(tb testing.TB, opts Options) (*pmda.Agent, pdu.Message) {
	tb.Helper()
	x, err := newLinux(opts)
	if err != nil {
		tb.Fatal(err)
	}
	a, err := x.agent(Domain)
	if err != nil {
		tb.Fatal(err)
	}
	req := &pdu.Fetch{}
	for _, n := range benchMetrics {
		d := findDesc(n)
		if d == nil {
			tb.Fatalf("no metric %s", n)
		}
		req.PMIDs = append(req.PMIDs, d.desc(Domain).PMID)
	}
	reply, err := a.Handle(context.Background(), 0, req)
	if err != nil {
		tb.Fatal(err)
	}
	for _, set := range reply.(*pdu.Result).Sets {
		if set.NumVal < 0 {
			tb.Fatalf("%v: numval %d", set.PMID, set.NumVal)
		}
	}
	return a, req
}

// BenchmarkHandleFetch is one fetch of benchMetrics through the agent's
// Handle, as pmcd makes it of the in-process agent.
func BenchmarkHandleFetch(b *testing.B) {
	a, msg := benchFetch(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Handle(ctx, 0, msg); err != nil {
			b.Fatal(err)
		}
	}
}
