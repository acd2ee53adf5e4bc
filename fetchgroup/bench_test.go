package fetchgroup

import (
	"context"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// loopSource answers every fetch with the same values and a later time.
type loopSource struct {
	fakeSource
	sets []pcp.ValueSet
	sec  int64
}

func (l *loopSource) Fetch(_ context.Context, _ []pcp.PMID, r *pcp.Result) (pmapi.StateChange, error) {
	l.sec++
	r.Timestamp = pcp.Timestamp{Sec: l.sec}
	r.Sets = append(r.Sets[:0], l.sets...)
	return 0, nil
}

// BenchmarkConvert times a fetchgroup's own work on a fetch of ten
// counters of eight instances each, as rates in doubles: what the group
// adds to the context's fetch.
func BenchmarkConvert(b *testing.B) {
	ctx := context.Background()
	src := &loopSource{fakeSource: fakeSource{descs: map[string]pcp.Desc{}, insts: map[pcp.InDom][]pmapi.Instance{}}}
	var names []string
	for m := range 10 {
		pmid := pcp.NewPMID(1, 0, uint32(m))
		name := string(rune('a' + m))
		src.descs[name] = pcp.Desc{PMID: pmid, Type: pcp.TypeU32, InDom: indom, Sem: pcp.SemCounter}
		s := pcp.ValueSet{PMID: pmid, NumVal: 8, ValFmt: pcp.ValInSitu}
		for i := range 8 {
			s.Values = append(s.Values, pcp.Value{Inst: int32(i), LVal: int32(100 * i)})
		}
		src.sets = append(src.sets, s)
		names = append(names, name)
	}
	for i := range 8 {
		src.insts[indom] = append(src.insts[indom], pmapi.Instance{Inst: int32(i), Name: "i" + string(rune('0'+i))})
	}
	g := New(src)
	for _, n := range names {
		if _, err := ExtendInDom[float64](ctx, g, n, nil); err != nil {
			b.Fatal(err)
		}
	}
	g.Fetch(ctx)
	b.ReportAllocs()
	for b.Loop() {
		g.Fetch(ctx)
	}
}
