package derive

import (
	"context"
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// fakeSource serves scripted samples: for each fetch, the values of each
// metric by instance (a nil map means the fetch of that metric fails).
type fakeSource struct {
	descs   map[string]pcp.Desc
	samples []map[string]map[int32]float64
	stamps  []pcp.Timestamp
	next    int
	fetched [][]pcp.PMID
}

func (f *fakeSource) LookupNames(_ context.Context, names []string) ([]pcp.PMID, error) {
	out := make([]pcp.PMID, len(names))
	found := 0
	for i, n := range names {
		out[i] = pcp.PMIDNull
		if d, ok := f.descs[n]; ok {
			out[i] = d.PMID
			found++
		}
	}
	if found == 0 && len(names) == 1 {
		return out, pcp.ErrName
	}
	return out, nil
}

func (f *fakeSource) name(pmid pcp.PMID) string {
	for n, d := range f.descs {
		if d.PMID == pmid {
			return n
		}
	}
	return ""
}

func (f *fakeSource) LookupDescs(_ context.Context, pmids []pcp.PMID) ([]pcp.Desc, error) {
	out := make([]pcp.Desc, len(pmids))
	for i, p := range pmids {
		out[i] = pcp.Desc{PMID: pcp.PMIDNull}
		if n := f.name(p); n != "" {
			out[i] = f.descs[n]
		}
	}
	return out, nil
}

func (f *fakeSource) LookupInDom(_ context.Context, _ pcp.InDom, name string) (int32, error) {
	if len(name) == 5 && name[:4] == "inst" {
		return int32(name[4] - '0'), nil
	}
	return 0, pcp.ErrInst
}

func (f *fakeSource) NameInDom(_ context.Context, _ pcp.InDom, inst int32) (string, error) {
	return "inst" + string(rune('0'+inst)), nil
}

func (f *fakeSource) Fetch(_ context.Context, pmids []pcp.PMID, r *pcp.Result) error {
	f.fetched = append(f.fetched, slices.Clone(pmids))
	s := f.samples[f.next]
	r.Reset()
	r.Timestamp = f.stamps[f.next]
	f.next++
	for _, p := range pmids {
		n := f.name(p)
		d := f.descs[n]
		vals, ok := s[n]
		if !ok {
			r.Sets = append(r.Sets, pcp.ValueSet{PMID: p, NumVal: pcp.ErrNoAgent.Code()})
			continue
		}
		vs := pcp.ValueSet{PMID: p, ValFmt: pcp.ValDPtr}
		insts := make([]int32, 0, len(vals))
		for i := range vals {
			insts = append(insts, i)
		}
		slices.Sort(insts)
		for _, i := range insts {
			v := pcp.Value{Inst: i}
			x := vals[i]
			switch d.Type {
			case pcp.TypeU32:
				vs.ValFmt = pcp.ValInSitu
				v.LVal = int32(uint32(x))
			case pcp.Type32:
				vs.ValFmt = pcp.ValInSitu
				v.LVal = int32(x)
			case pcp.TypeU64:
				v.Block = pcp.ValueBlock{Type: d.Type, Data: binary.NativeEndian.AppendUint64(nil, uint64(x))}
			case pcp.TypeDouble:
				v.Block = pcp.ValueBlock{Type: d.Type, Data: binary.NativeEndian.AppendUint64(nil, math.Float64bits(x))}
			}
			vs.Values = append(vs.Values, v)
		}
		vs.NumVal = int32(len(vs.Values))
		r.Sets = append(r.Sets, vs)
	}
	return nil
}

func newFake() *fakeSource {
	indom := pcp.NewInDom(1, 1)
	msec := pcp.Units{DimTime: 1, ScaleTime: pcp.TimeMSec}
	return &fakeSource{
		descs: map[string]pcp.Desc{
			"m.ctr":  {PMID: pcp.NewPMID(1, 0, 1), Type: pcp.TypeU32, InDom: indom, Sem: pcp.SemCounter, Units: pcp.Units{DimCount: 1}},
			"m.busy": {PMID: pcp.NewPMID(1, 0, 2), Type: pcp.TypeU64, InDom: pcp.InDomNull, Sem: pcp.SemCounter, Units: msec},
			"m.val":  {PMID: pcp.NewPMID(1, 0, 3), Type: pcp.TypeDouble, InDom: pcp.InDomNull, Sem: pcp.SemInstant},
			"m.zero": {PMID: pcp.NewPMID(1, 0, 4), Type: pcp.Type32, InDom: pcp.InDomNull, Sem: pcp.SemInstant},
		},
		stamps: []pcp.Timestamp{{Sec: 100}, {Sec: 102}, {Sec: 104}, {Sec: 105}},
		samples: []map[string]map[int32]float64{
			{"m.ctr": {1: 10, 2: 20, 3: 4294967290}, "m.busy": {-1: 1000}, "m.val": {-1: 5}, "m.zero": {-1: 0}},
			{"m.ctr": {1: 15, 2: 20, 3: 4}, "m.busy": {-1: 2000}, "m.val": {-1: 0}, "m.zero": {-1: 0}},
			{"m.ctr": {1: 25, 3: 14, 4: 1}, "m.busy": {-1: 2500}, "m.zero": {-1: 0}},
			{"m.ctr": {1: 5, 2: 1, 4: 2}, "m.busy": {-1: 2500}, "m.val": {-1: 1}, "m.zero": {-1: 0}},
		},
	}
}

type got struct {
	n    int32
	vals map[int32]float64
}

func fetchAll(t *testing.T, c *Layer, names []string) []got {
	t.Helper()
	ctx := context.Background()
	pmids, err := c.LookupNames(ctx, names)
	if err != nil {
		t.Fatal(err)
	}
	descs, err := c.LookupDescs(ctx, pmids)
	if err != nil {
		t.Fatal(err)
	}
	var r pcp.Result
	if err := c.Fetch(ctx, pmids, &r); err != nil {
		t.Fatal(err)
	}
	out := make([]got, len(names))
	for i := range names {
		vs := &r.Sets[i]
		out[i] = got{n: vs.NumVal, vals: map[int32]float64{}}
		for j := range vs.Values[:max(vs.NumVal, 0)] {
			a, err := pcp.ExtractValue(vs.ValFmt, &vs.Values[j], descs[i].Type, pcp.TypeDouble)
			if err != nil {
				t.Fatalf("%s: %v", names[i], err)
			}
			out[i].vals[vs.Values[j].Inst] = a.D
		}
	}
	return out
}

// TestEvalOverFetches follows delta(), rate() and friends over four
// scripted samples, with libpcp's rules: no value on the first fetch,
// instances present in both samples only, rates over the timestamps'
// interval, time counters as utilisation, and operands fetched once.
func TestEvalOverFetches(t *testing.T) {
	src := newFake()
	reg := NewRegistry()
	defs := map[string]string{
		"d.delta": "delta(m.ctr)",
		"d.rate":  "rate(m.ctr)",
		"d.util":  "rate(m.busy)",
		"d.sum":   "sum(m.ctr)",
		"d.count": "count(m.val)",
		"d.div":   "m.val / m.zero",
		"d.zero":  "m.zero / m.zero",
		"d.plus":  "m.val + 1",
	}
	names := []string{"d.delta", "d.rate", "d.util", "d.sum", "d.count", "d.div", "d.zero", "d.plus"}
	for _, n := range names {
		if err := reg.Register(n, defs[n]); err != nil {
			t.Fatal(err)
		}
	}
	c := NewLayer(src, reg)
	inf := math.Inf(1)
	want := [][]got{
		{{0, nil}, {0, nil}, {0, nil}, {1, map[int32]float64{-1: 24}}, {1, map[int32]float64{-1: 1}},
			{1, map[int32]float64{-1: inf}}, {1, map[int32]float64{-1: 0}}, {1, map[int32]float64{-1: 6}}},
		{{3, map[int32]float64{1: 5, 2: 0, 3: 4 - 4294967290}}, {3, map[int32]float64{1: 2.5, 2: 0, 3: float64(uint32(10)) / 2}},
			{1, map[int32]float64{-1: 0.5}}, {1, map[int32]float64{-1: 39}}, {1, map[int32]float64{-1: 1}},
			{1, map[int32]float64{-1: 0}}, {1, map[int32]float64{-1: 0}}, {1, map[int32]float64{-1: 1}}},
		{{2, map[int32]float64{1: 10, 3: 10}}, {2, map[int32]float64{1: 5, 3: 5}}, {1, map[int32]float64{-1: 0.25}},
			{1, map[int32]float64{-1: 40}}, {1, map[int32]float64{-1: 0}},
			{pcp.ErrNoAgent.Code(), nil}, {1, map[int32]float64{-1: 0}}, {pcp.ErrNoAgent.Code(), nil}},
		{{2, map[int32]float64{1: -20, 4: 1}}, {2, map[int32]float64{1: 4294967276, 4: 1}}, {1, map[int32]float64{-1: 0}},
			{1, map[int32]float64{-1: 8}}, {1, map[int32]float64{-1: 1}},
			{1, map[int32]float64{-1: inf}}, {1, map[int32]float64{-1: 0}}, {1, map[int32]float64{-1: 2}}},
	}
	for step := range want {
		res := fetchAll(t, c, names)
		for i, w := range want[step] {
			g := res[i]
			if g.n != w.n || len(g.vals) != len(w.vals) {
				t.Errorf("fetch %d %s (%s): %d values %v, want %d %v", step, names[i], defs[names[i]], g.n, g.vals, w.n, w.vals)
				continue
			}
			for inst, v := range w.vals {
				if gv, ok := g.vals[inst]; !ok || gv != v && !(math.IsNaN(v) && math.IsNaN(gv)) {
					t.Errorf("fetch %d %s (%s) inst %d: %v, want %v", step, names[i], defs[names[i]], inst, g.vals[inst], v)
				}
			}
		}
	}
	for i, f := range src.fetched {
		if len(f) != 4 {
			t.Errorf("fetch %d asked for %d metrics, want each of the 4 operands once: %v", i, len(f), f)
		}
	}
}
