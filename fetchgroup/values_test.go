package fetchgroup

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// TestValues runs the short path on a context whose answers the test
// sets: values in the order named, instances in order with their names,
// counters as they are, the metric's own error kept apart, failures of
// the call wrapping PCP's codes, and the context left open.
func TestValues(t *testing.T) {
	descs := map[string]pcp.Desc{
		"c": {PMID: pmidA, Type: pcp.TypeU32, InDom: pcp.InDomNull, Sem: pcp.SemCounter},
		"m": {PMID: pmidB, Type: pcp.Type32, InDom: indom, Sem: pcp.SemInstant},
	}
	insts := map[pcp.InDom][]pmapi.Instance{indom: {{Inst: 1, Name: "one"}, {Inst: 2, Name: "two"}}}
	for _, c := range []struct {
		name    string
		metrics []string
		fetch   fakeFetch
		want    []Metric[int64]
		err     error
	}{
		{name: "counter and instances", metrics: []string{"m", "c"},
			fetch: fakeFetch{ts: 1, sets: []pcp.ValueSet{inSitu(pmidB, 20, 10), inSitu(pmidA, 7)}},
			want: []Metric[int64]{
				{Name: "m", Desc: descs["m"], Instances: []Instance[int64]{{1, "one", 10, nil}, {2, "two", 20, nil}}},
				{Name: "c", Desc: descs["c"], Instances: []Instance[int64]{{pcp.InstNull, "", 7, nil}}},
			}},
		{name: "a metric's own error", metrics: []string{"c", "m"},
			fetch: fakeFetch{ts: 1, sets: []pcp.ValueSet{inSitu(pmidA, 7), failed(pmidB, pcp.ErrAgain)}},
			want: []Metric[int64]{
				{Name: "c", Desc: descs["c"], Instances: []Instance[int64]{{pcp.InstNull, "", 7, nil}}},
				{Name: "m", Desc: descs["m"], Instances: []Instance[int64]{}, Err: pcp.ErrAgain},
			}},
		{name: "unknown name", metrics: []string{"c", "nosuch"}, err: pcp.ErrName},
		{name: "no names", err: pcp.ErrTooSmall},
		{name: "failed fetch", metrics: []string{"c"}, fetch: fakeFetch{err: pcp.ErrTimeout}, err: pcp.ErrTimeout},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := &fakeSource{descs: descs, insts: insts, results: []fakeFetch{c.fetch}}
			got, err := Values[int64](context.Background(), src, c.metrics...)
			if c.err != nil {
				if !errors.Is(err, c.err) || got != nil {
					t.Fatalf("got %v, %v; want error %v", got, err, c.err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if len(got[i].Instances) == 0 {
					got[i].Instances = []Instance[int64]{}
				}
			}
			if c.err == nil && !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v\nwant %+v", got, c.want)
			}
			if src.closed {
				t.Error("Values closed the caller's context")
			}
		})
	}
	if _, err := Values[int64](context.Background(), nil, "c"); !errors.Is(err, pcp.ErrNoContext) {
		t.Errorf("nil context: %v", err)
	}
}
