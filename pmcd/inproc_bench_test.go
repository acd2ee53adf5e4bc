package pmcd

import (
	"context"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/gopcp/gopcp/agents/trivial"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// BenchmarkInProcCall is one fetch handed to an in-process agent (the
// trivial agent) and its answer copied into a client's storage, without
// the network: the cost of calling an agent that pmcd can give up on.
// "direct" calls it as pmcd's own agent is called, for comparison.
func BenchmarkInProcCall(b *testing.B) {
	for _, own := range []bool{false, true} {
		name := "guarded"
		if own {
			name = "direct"
		}
		b.Run(name, func(b *testing.B) {
			a, err := lookupDSO("trivial_init")(250)
			if err != nil {
				b.Fatal(err)
			}
			p := &inProc{a: a, own: own, into: new(pdu.Result)}
			defer p.close()
			req := &pdu.Fetch{PMIDs: []pcp.PMID{pcp.NewPMID(250, 0, 0)}}
			ctx := context.Background()
			b.ReportAllocs()
			cpu0 := processCPU()
			for b.Loop() {
				p.timeout = defaultAgentTimeout
				if _, err := p.call(ctx, 1, req); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu0)
		})
	}
}

// directTrivial is the trivial agent (domain 250) in process, called
// directly, on a server of its own; the caller closes p.
func directTrivial(b *testing.B) (*Server, *agent, *inProc) {
	b.Helper()
	na, err := lookupDSO("trivial_init")(250)
	if err != nil {
		b.Fatal(err)
	}
	s := &Server{}
	a := &agent{conf: AgentConf{Kind: AgentDSO}, s: s}
	p := &inProc{a: na}
	a.b = p
	a.direct.Store(p)
	return s, a, p
}

// BenchmarkInProcFetchDirect is a fetch from an in-process agent (the
// trivial agent) as pmcd makes it, on the caller's goroutine under the
// agent's lock with the watchdog timing it (fetchDirect), its answer
// copied into a client's storage: BenchmarkInProcCall's "guarded" without
// the hand-off.
func BenchmarkInProcFetchDirect(b *testing.B) {
	s, a, p := directTrivial(b)
	defer p.close()
	c := &client{s: s, num: 1, profiles: map[int32]*pdu.Profile{0: {State: pdu.ProfileInclude}},
		gens: map[int32]uint64{}}
	req := &pdu.Fetch{PMIDs: []pcp.PMID{pcp.NewPMID(250, 0, 0)}}
	into := new(pdu.Result)
	ctx := context.Background()
	b.ReportAllocs()
	cpu0 := processCPU()
	for b.Loop() {
		if _, err := a.fetch(ctx, c, req, into, c); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu0)
}

// BenchmarkInProcParallel is BenchmarkInProcCall's hand-off ("handoff",
// under a lock standing for the agent slot's) and
// BenchmarkInProcFetchDirect ("direct") with GOMAXPROCS callers at once,
// each a client of its own: the cost of the agent's lock when fetches
// wait for it, as under many clients.
func BenchmarkInProcParallel(b *testing.B) {
	for _, mode := range []string{"handoff", "direct"} {
		b.Run(mode, func(b *testing.B) {
			s, a, p := directTrivial(b)
			defer p.close()
			req := &pdu.Fetch{PMIDs: []pcp.PMID{pcp.NewPMID(250, 0, 0)}}
			var mu sync.Mutex
			var nums atomic.Int32
			b.ReportAllocs()
			cpu0 := processCPU()
			b.RunParallel(func(pb *testing.PB) {
				c := &client{s: s, num: nums.Add(1), profiles: map[int32]*pdu.Profile{0: {State: pdu.ProfileInclude}},
					gens: map[int32]uint64{}}
				into := new(pdu.Result)
				ctx := context.Background()
				for pb.Next() {
					if mode == "direct" {
						if _, err := a.fetch(ctx, c, req, into, c); err != nil {
							b.Error(err)
							return
						}
						continue
					}
					mu.Lock()
					p.timeout, p.into = defaultAgentTimeout, into
					_, err := p.call(ctx, c.num, req)
					p.into = nil
					mu.Unlock()
					if err != nil {
						b.Error(err)
						return
					}
				}
			})
			reportCPU(b, cpu0)
		})
	}
}

// processCPU is the user and system CPU time the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the process's CPU time per operation since cpu0: on
// a machine shared with other work the time per operation counts the
// waits for a CPU too, which this does not.
func reportCPU(b *testing.B, cpu0 time.Duration) {
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
}
