package bench

import (
	"context"
	"net"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"testing"
	"time"

	pmcdagent "github.com/gopcp/gopcp/agents/pmcd"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmcd"
	"github.com/gopcp/gopcp/pmns"
)

// TestScalingClientHeap serves ours in this process (its own pmcd agent
// only), connects GOPCP_SCALING_HEAP_CLIENTS clients (1,000 by default)
// that fetch once each and stay, and writes a heap profile of what the
// connections hold to GOPCP_SCALING_HEAP (GOPCP_BENCH=1 and that variable
// set): `go tool pprof -sample_index=inuse_space -top` reads it. It is
// how docs/bench.md's per-client memory was found.
func TestScalingClientHeap(t *testing.T) {
	out := os.Getenv("GOPCP_SCALING_HEAP")
	if os.Getenv("GOPCP_BENCH") != "1" || out == "" {
		t.Skip("GOPCP_BENCH=1 GOPCP_SCALING_HEAP=file writes the profile")
	}
	raiseNoFile(t)
	n := 1000
	if v, err := strconv.Atoi(os.Getenv("GOPCP_SCALING_HEAP_CLIENTS")); err == nil && v > 0 {
		n = v
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	conf := &pmcd.Conf{Agents: []pmcd.AgentConf{{Name: "pmcd", Domain: 2, Kind: pmcd.AgentDSO, Entry: pmcdagent.Entry}}}
	tree, err := pmcd.AgentNamespace(ctx, conf, nil)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]pcp.PMID, len(pmcdBenchSets[1].names))
	for i, name := range pmcdBenchSets[1].names {
		if ids[i], err = tree.Lookup(name); err != nil {
			t.Fatal(err)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- (&pmcd.Server{PMNS: tree, Conf: conf}).Serve(sctx, l) }()
	defer func() { stop(); <-done }()

	var clients []*pmapi.HostContext
	defer func() {
		for _, c := range clients {
			c.Close()
		}
	}()
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse + m.StackInuse
	}
	before := heap()
	for range n {
		c, err := pmapi.NewHostContext(ctx, l.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		var r pcp.Result
		if _, err := c.Fetch(ctx, ids, &r); err != nil {
			t.Fatal(err)
		}
		clients = append(clients, c)
	}
	after := heap()
	t.Logf("%d clients: heap + stacks in use grew %d KiB, %.1f KiB per client (both ends of each connection in this process)",
		n, (after-before)>>10, float64(after-before)/1024/float64(n))
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		t.Fatal(err)
	}
}

// TestScalingInstancesProfile serves ours in this process with PCP's
// sample agent on a pipe, sets sample.many.count to
// GOPCP_SCALING_INSTANCES (100,000 by default) and has one client fetch
// sample.many.int for two seconds under the CPU profiler, written to
// GOPCP_SCALING_CPU (GOPCP_BENCH=1 and that variable set); `go tool
// pprof -top -focus=pmcd` shows the daemon's share. It is how
// docs/bench.md's cost per instance was found.
func TestScalingInstancesProfile(t *testing.T) {
	out := os.Getenv("GOPCP_SCALING_CPU")
	if os.Getenv("GOPCP_BENCH") != "1" || out == "" {
		t.Skip("GOPCP_BENCH=1 GOPCP_SCALING_CPU=file writes the profile")
	}
	n := 100000
	if v, err := strconv.Atoi(os.Getenv("GOPCP_SCALING_INSTANCES")); err == nil && v > 0 {
		n = v
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	const sampleDir = "/var/lib/pcp/pmdas/sample"
	if _, err := os.Stat(sampleDir + "/pmdasample"); err != nil {
		t.Skip("no PCP sample agent:", err)
	}
	conf := &pmcd.Conf{Agents: []pmcd.AgentConf{{Name: "sample", Domain: 29, Kind: pmcd.AgentPipe,
		Argv: []string{sampleDir + "/pmdasample", "-d", "29"}}}}
	tree, err := pmns.Load(sampleDir + "/root")
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]pcp.PMID, 2)
	for i, name := range []string{"sample.many.count", "sample.many.int"} {
		if ids[i], err = tree.Lookup(name); err != nil {
			t.Fatal(err)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- (&pmcd.Server{PMNS: tree, Conf: conf, AgentDir: t.TempDir()}).Serve(sctx, l) }()
	defer func() { stop(); <-done }()
	c, err := pmapi.NewHostContext(ctx, l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Store(ctx, &pcp.Result{Sets: []pcp.ValueSet{{PMID: ids[0], NumVal: 1, ValFmt: pcp.ValInSitu,
		Values: []pcp.Value{{Inst: pcp.InstNull, LVal: int32(n)}}}}}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		t.Fatal(err)
	}
	var r pcp.Result
	fetches := 0
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); fetches++ {
		if _, err := c.Fetch(ctx, ids[1:], &r); err != nil {
			t.Fatal(err)
		}
	}
	pprof.StopCPUProfile()
	t.Logf("%d fetches of %d instances", fetches, r.Sets[0].NumVal)
}
