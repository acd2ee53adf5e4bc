package trace_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	atrace "github.com/gopcp/gopcp/agents/trace"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/trace"
)

// benchFetch makes the agent with 10 tags of each kind (transactions,
// points, observations, counters) over two closed intervals, and the
// FETCH of every metric but the control ones (14 metrics, 140 values),
// fetched once so that what follows is the steady state.
func benchFetch(tb testing.TB) (*atrace.Agent, pdu.Message) {
	tb.Helper()
	a, err := atrace.New(atrace.Domain, atrace.Options{Period: 30 * time.Second, Buckets: 3, ManualTicks: true})
	if err != nil {
		tb.Fatal(err)
	}
	for round := range 2 {
		for i := range 10 {
			for _, t := range []trace.Type{trace.TypeTransact, trace.TypePoint, trace.TypeObserve, trace.TypeCounter} {
				if err := a.Record(datum(fmt.Sprintf("tag%d", i), t, float64(round+i))); err != nil {
					tb.Fatal(err)
				}
			}
		}
		a.Tick()
	}
	req := &pdu.Fetch{}
	for item := uint32(0); item <= 19; item++ {
		if item >= 11 && item <= 16 { // period ... debug
			continue
		}
		req.PMIDs = append(req.PMIDs, pmid(item))
	}
	reply, err := a.PMDA().Handle(context.Background(), 0, req)
	if err != nil {
		tb.Fatal(err)
	}
	n := 0
	for _, set := range reply.(*pdu.Result).Sets {
		if set.NumVal <= 0 {
			tb.Fatalf("%v: numval %d", set.PMID, set.NumVal)
		}
		n += int(set.NumVal)
	}
	if n != 140 {
		tb.Fatalf("%d values, want 140", n)
	}
	return a, req
}

// BenchmarkHandleFetch is one fetch of every metric of 40 tags through
// the agent's Handle, as pmcd makes it of the agent.
func BenchmarkHandleFetch(b *testing.B) {
	a, msg := benchFetch(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.PMDA().Handle(ctx, 0, msg); err != nil {
			b.Fatal(err)
		}
	}
}
