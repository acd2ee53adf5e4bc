package mmv

import (
	"context"
	"fmt"
	"testing"

	gommv "github.com/gopcp/gopcp/mmv"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// benchAgent makes the agent over one registry of a typical program: two
// counters, a gauge, a string, a timer and a counter and a gauge over an
// instance domain of 16 instances; and the FETCH of all seven metrics
// (37 values), fetched once so that what follows is the steady state.
func benchAgent(tb testing.TB) (*pmda.Agent, pdu.Message) {
	tb.Helper()
	dir := tb.TempDir()
	r, err := gommv.New("bench", gommv.Options{Dir: dir})
	if err != nil {
		tb.Fatal(err)
	}
	var insts []gommv.Instance
	for i := range 16 {
		insts = append(insts, gommv.Instance{ID: int32(i), Name: fmt.Sprintf("inst%02d", i)})
	}
	d, err := r.AddInDom(insts, gommv.InDomOptions{Serial: 1})
	must := func(err error) {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
	}
	must(err)
	c1, err := r.Counter("requests", gommv.MetricOptions{})
	must(err)
	c2, err := r.Counter("errors", gommv.MetricOptions{})
	must(err)
	g, err := r.Gauge("load", gommv.MetricOptions{})
	must(err)
	txt, err := r.Text("state", gommv.MetricOptions{})
	must(err)
	tm, err := r.Timer("busy", gommv.MetricOptions{})
	must(err)
	cv, err := r.CounterVec("hits", d, gommv.MetricOptions{})
	must(err)
	gv, err := r.GaugeVec("level", d, gommv.MetricOptions{})
	must(err)
	must(r.Start())
	tb.Cleanup(func() { r.Close() })
	c1.Add(1234)
	c2.Inc()
	g.Set(0.5)
	txt.Set("running")
	tm.Add(99)
	for i := range 16 {
		c, ok1 := cv.At(int32(i))
		l, ok2 := gv.At(int32(i))
		if !ok1 || !ok2 {
			tb.Fatalf("instance %d missing", i)
		}
		c.Add(uint64(i))
		l.Set(float64(i) / 2)
	}
	ag, a, err := newAgent(Domain, Options{Dir: dir, Prefix: Prefix})
	must(err)
	tb.Cleanup(ag.release)
	ctx := context.Background()
	req := &pdu.Fetch{}
	for _, n := range []string{"requests", "errors", "load", "state", "busy", "hits", "level"} {
		id, err := a.LookupName(ctx, 0, "mmv.bench."+n)
		must(err)
		req.PMIDs = append(req.PMIDs, id)
	}
	reply, err := a.Handle(ctx, 0, req)
	must(err)
	n := 0
	for _, set := range reply.(*pdu.Result).Sets {
		if set.NumVal <= 0 {
			tb.Fatalf("%v: numval %d", set.PMID, set.NumVal)
		}
		n += int(set.NumVal)
	}
	if n != 5+2*16 {
		tb.Fatalf("%d values, want %d", n, 5+2*16)
	}
	return a, req
}

// BenchmarkHandleFetch is one fetch of a typical program's metrics
// through the agent's Handle, as pmcd makes it of the in-process agent.
func BenchmarkHandleFetch(b *testing.B) {
	a, msg := benchAgent(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Handle(ctx, 0, msg); err != nil {
			b.Fatal(err)
		}
	}
}
