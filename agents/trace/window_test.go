package trace_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	atrace "github.com/gopcp/gopcp/agents/trace"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
	"github.com/gopcp/gopcp/trace"
)

func pmid(item uint32) pcp.PMID { return pcp.NewPMID(atrace.Domain, 0, item) }

// show fetches items and prints their values, "-" for none.
func show(t *testing.T, a *atrace.Agent, items ...uint32) string {
	t.Helper()
	var ids []pcp.PMID
	for _, i := range items {
		ids = append(ids, pmid(i))
	}
	res, err := a.PMDA().Fetch(context.Background(), pmda.Client(0), ids)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, set := range res.Sets {
		m := a.PMDA().Metric(set.PMID)
		if set.NumVal <= 0 {
			fmt.Fprintf(&b, "%d:-", set.PMID.Item())
		} else {
			fmt.Fprintf(&b, "%d:", set.PMID.Item())
			for i, v := range set.Values {
				if i > 0 {
					b.WriteString(",")
				}
				atom, err := pcp.ExtractValue(set.ValFmt, &v, m.Desc.Type, m.Desc.Type)
				if err != nil {
					t.Fatal(err)
				}
				if v.Inst != pcp.InstNull {
					fmt.Fprintf(&b, "%d=", v.Inst)
				}
				b.WriteString(atomText(atom, m.Desc.Type))
			}
		}
		b.WriteString(" ")
	}
	return strings.TrimSpace(b.String())
}

func datum(tag string, t trace.Type, v float64) trace.Data {
	return trace.Data{Tag: tag, TagLen: uint8(len(tag) + 1), Type: t, Value: v}
}

// TestRollingWindow drives the agent's clock by hand through pmdatrace's
// rules: data count in the window only once their interval has closed,
// the window figures stay as computed until the next interval, and a
// bucket leaves the window after -N intervals.
func TestRollingWindow(t *testing.T) {
	a, err := atrace.New(atrace.Domain, atrace.Options{Period: 30 * time.Second, Buckets: 3, ManualTicks: true})
	if err != nil {
		t.Fatal(err)
	}
	const (
		tcount, trate, tave, tmin, tmax, ttotal = 0, 1, 2, 3, 4, 5
		pcount, prate                           = 6, 7
		ovalue                                  = 10
		period, interval, buckets               = 11, 12, 13
	)
	rec := func(d trace.Data) {
		if err := a.Record(d); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		do   func()
		want string
	}{
		{func() {}, "6:- 7:- 11:30 12:10 13:3"},
		{func() { rec(datum("p", trace.TypePoint, -1)); rec(datum("p", trace.TypePoint, -1)) }, "6:1=2 7:- 11:30 12:10 13:3"},
		{a.Tick, "6:1=2 7:1=0.06666667 11:30 12:10 13:3"},
		{func() { rec(datum("p", trace.TypePoint, -1)); rec(datum("q", trace.TypePoint, -1)) }, "6:1=3,2=1 7:1=0.06666667 11:30 12:10 13:3"},
		{a.Tick, "6:1=3,2=1 7:1=0.1,2=0.033333335 11:30 12:10 13:3"},
		{a.Tick, "6:1=3,2=1 7:1=0.1,2=0.033333335 11:30 12:10 13:3"},
		{a.Tick, "6:1=3,2=1 7:1=0.033333335,2=0.033333335 11:30 12:10 13:3"},
		{a.Tick, "6:1=3,2=1 7:- 11:30 12:10 13:3"},
	}
	for i, s := range steps {
		s.do()
		if got := show(t, a, pcount, prate, period, interval, buckets); got != s.want {
			t.Errorf("step %d: %s, want %s", i, got, s.want)
		}
	}
	// Transactions: times over the window, the total since the start.
	rec(datum("t", trace.TypeTransact, 0.5))
	rec(datum("t", trace.TypeTransact, 1.5))
	a.Tick()
	rec(datum("t", trace.TypeTransact, 0.25))
	a.Tick()
	if got, want := show(t, a, tcount, trate, tave, tmin, tmax, ttotal), "0:1=3 1:1=0.1 2:1=0.75 3:1=0.25 4:1=1.5 5:1=2.25"; got != want {
		t.Errorf("transactions: %s, want %s", got, want)
	}
	rec(datum("o", trace.TypeObserve, 4))
	rec(datum("o", trace.TypeObserve, 5))
	if got, want := show(t, a, ovalue), "10:1=5"; got != want {
		t.Errorf("observation: %s, want %s", got, want)
	}
}

// TestResetKeepsNumbers checks pmdatrace's reset: everything goes, a tag
// coming back gets its old number and the domain is then in number order.
func TestResetKeepsNumbers(t *testing.T) {
	a, _ := atrace.New(atrace.Domain, atrace.Options{ManualTicks: true})
	for _, tag := range []string{"a", "b", "c"} {
		a.Record(datum(tag, trace.TypePoint, -1))
	}
	a.Reset()
	if got := show(t, a, 6); got != "6:-" {
		t.Errorf("after reset: %s", got)
	}
	for _, tag := range []string{"c", "d", "a"} {
		a.Record(datum(tag, trace.TypePoint, -1))
	}
	if got, want := show(t, a, 6), "6:1=1,3=1,4=1"; got != want {
		t.Errorf("after reset and return: %s, want %s", got, want)
	}
}

// TestTagBound checks that tags beyond MaxTags are refused.
func TestTagBound(t *testing.T) {
	a, _ := atrace.New(atrace.Domain, atrace.Options{ManualTicks: true, MaxTags: 3})
	for i := 0; i < 3; i++ {
		if err := a.Record(datum(fmt.Sprint("t", i), trace.TypePoint, -1)); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Record(datum("one-too-many", trace.TypeCounter, 1)); err == nil {
		t.Error("a fourth tag was kept")
	}
	if err := a.Record(datum("t1", trace.TypePoint, -1)); err != nil {
		t.Errorf("a known tag refused: %v", err)
	}
}

// atomText prints a value in the shortest form that reads back exactly.
func atomText(a pcp.Atom, t pcp.Type) string {
	switch t {
	case pcp.TypeU32:
		return strconv.FormatUint(uint64(a.UL), 10)
	case pcp.TypeU64:
		return strconv.FormatUint(a.ULL, 10)
	case pcp.TypeFloat:
		return strconv.FormatFloat(float64(a.F), 'g', -1, 32)
	case pcp.TypeDouble:
		return strconv.FormatFloat(a.D, 'g', -1, 64)
	}
	return a.CP
}

// TestBucketBound checks that the window's records are bounded: a datum
// needing a new one beyond the bound is refused, and room comes back as
// buckets leave the window.
func TestBucketBound(t *testing.T) {
	a, _ := atrace.New(atrace.Domain, atrace.Options{ManualTicks: true, Buckets: 2, MaxBucketEntries: 3})
	for _, tag := range []string{"a", "b", "c"} {
		if err := a.Record(datum(tag, trace.TypePoint, -1)); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Record(datum("a", trace.TypePoint, -1)); err != nil {
		t.Errorf("a known record refused: %v", err)
	}
	a.Tick()
	if err := a.Record(datum("a", trace.TypePoint, -1)); err == nil {
		t.Error("a fourth record kept")
	}
	a.Tick()
	a.Tick() // the first interval's bucket is emptied for work
	if err := a.Record(datum("a", trace.TypePoint, -1)); err != nil {
		t.Errorf("room did not come back: %v", err)
	}
}
