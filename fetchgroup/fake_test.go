package fetchgroup

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// fakeSource is a context whose metrics and fetch results a test sets;
// the methods fetchgroups do not use are left to the nil embedded Source.
type fakeSource struct {
	pmapi.Source
	descs     map[string]pcp.Desc
	insts     map[pcp.InDom][]pmapi.Instance
	results   []fakeFetch // one per Fetch, in turn
	fetches   int
	getInDoms int
	closed    bool
}

type fakeFetch struct {
	ts   int64 // seconds
	sets []pcp.ValueSet
	err  error
}

func (f *fakeSource) LookupName(_ context.Context, name string) (pcp.PMID, error) {
	if d, ok := f.descs[name]; ok {
		return d.PMID, nil
	}
	return 0, pcp.ErrName
}

func (f *fakeSource) LookupDesc(_ context.Context, pmid pcp.PMID) (pcp.Desc, error) {
	for _, d := range f.descs {
		if d.PMID == pmid {
			return d, nil
		}
	}
	return pcp.Desc{}, pcp.ErrPMID
}

func (f *fakeSource) LookupInDom(_ context.Context, indom pcp.InDom, name string) (int32, error) {
	for _, in := range f.insts[indom] {
		if in.Name == name {
			return in.Inst, nil
		}
	}
	return 0, pcp.ErrInst
}

func (f *fakeSource) GetInDom(_ context.Context, indom pcp.InDom) ([]pmapi.Instance, error) {
	f.getInDoms++
	return f.insts[indom], nil
}

func (f *fakeSource) AddProfile(pcp.InDom, []int32) error { return nil }
func (f *fakeSource) Kind() pmapi.Kind                    { return pmapi.KindHost }
func (f *fakeSource) Close() error                        { f.closed = true; return nil }

func (f *fakeSource) Fetch(_ context.Context, pmids []pcp.PMID, r *pcp.Result) (pmapi.StateChange, error) {
	ff := f.results[f.fetches]
	f.fetches++
	if ff.err != nil {
		return 0, ff.err
	}
	r.Timestamp = pcp.Timestamp{Sec: ff.ts}
	r.Sets = append(r.Sets[:0], ff.sets...)
	return 0, nil
}

var (
	pmidA = pcp.NewPMID(1, 0, 1)
	pmidB = pcp.NewPMID(1, 0, 2)
	indom = pcp.InDom(0x400001)
)

func inSitu(pmid pcp.PMID, vals ...int32) pcp.ValueSet {
	s := pcp.ValueSet{PMID: pmid, NumVal: int32(len(vals)), ValFmt: pcp.ValInSitu}
	for i, v := range vals {
		inst := pcp.InstNull
		if len(vals) > 1 {
			inst = int32(len(vals) - i) // unsorted, as agents may send them
		}
		s.Values = append(s.Values, pcp.Value{Inst: inst, LVal: v})
	}
	return s
}

func failed(pmid pcp.PMID, err pcp.Error) pcp.ValueSet {
	return pcp.ValueSet{PMID: pmid, NumVal: int32(err)}
}

func TestDiscreteKeepsLastValue(t *testing.T) {
	ctx := context.Background()
	src := &fakeSource{
		descs: map[string]pcp.Desc{"d": {PMID: pmidA, Type: pcp.Type32, InDom: pcp.InDomNull, Sem: pcp.SemDiscrete}},
		results: []fakeFetch{
			{ts: 1, sets: []pcp.ValueSet{inSitu(pmidA, 5)}},
			{ts: 2, sets: []pcp.ValueSet{inSitu(pmidA)}},               // no values: keep 5
			{ts: 3, sets: []pcp.ValueSet{failed(pmidA, pcp.ErrAgain)}}, // an error: keep 5, report it
			{err: pcp.ErrIPC}, // the fetch fails: keep 5
			{ts: 5, sets: []pcp.ValueSet{inSitu(pmidA, 7)}},
		},
	}
	g := New(src)
	it, err := ExtendItem[int64](ctx, g, "d", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		v   int64
		err error
	}{{5, nil}, {5, nil}, {5, pcp.ErrAgain}, {5, pcp.ErrValue}, {7, nil}}
	for i, w := range want {
		g.Fetch(ctx)
		if it.Value() != w.v || !errors.Is(it.Err(), w.err) || (w.err == nil) != (it.Err() == nil) {
			t.Errorf("fetch %d: %d, %v; want %d, %v", i+1, it.Value(), it.Err(), w.v, w.err)
		}
	}
}

func TestRatesAndFailedFetches(t *testing.T) {
	ctx := context.Background()
	src := &fakeSource{
		descs: map[string]pcp.Desc{
			"c": {PMID: pmidA, Type: pcp.TypeU32, InDom: pcp.InDomNull, Sem: pcp.SemCounter,
				Units: pcp.Units{DimCount: 1}},
			"i": {PMID: pmidB, Type: pcp.Type32, InDom: pcp.InDomNull, Sem: pcp.SemInstant},
		},
		results: []fakeFetch{
			{ts: 10, sets: []pcp.ValueSet{inSitu(pmidA, 100), inSitu(pmidB, 1)}},
			{err: pcp.ErrTimeout},
			// the rate is taken over the fetch before the failed one
			{ts: 14, sets: []pcp.ValueSet{inSitu(pmidA, 140), inSitu(pmidB, 2)}},
			{ts: 15, sets: []pcp.ValueSet{inSitu(pmidA, 40), inSitu(pmidB, 3)}},
		},
	}
	g := New(src)
	rate, _ := ExtendItem[float64](ctx, g, "c", nil)
	perMin, err := ExtendItem[float64](ctx, g, "c", &ItemOptions{Scale: "count/min"})
	if err != nil {
		t.Fatal(err)
	}
	inst, _ := ExtendItem[string](ctx, g, "i", nil)
	ts := g.ExtendTimestamp()

	if _, err := g.Fetch(ctx); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(rate.Err(), pcp.ErrAgain) || !math.IsNaN(rate.Value()) || inst.Value() != "1" {
		t.Errorf("first fetch: rate %v %v, instant %q", rate.Value(), rate.Err(), inst.Value())
	}
	if _, err := g.Fetch(ctx); !errors.Is(err, pcp.ErrTimeout) {
		t.Errorf("failed fetch: %v", err)
	}
	if !errors.Is(inst.Err(), pcp.ErrValue) || inst.Value() != "" || ts.Time().IsZero() {
		t.Errorf("failed fetch: instant %q %v, time %v", inst.Value(), inst.Err(), ts.Time())
	}
	g.Fetch(ctx)
	if rate.Value() != 10 || perMin.Value() != 600 || rate.Err() != nil {
		t.Errorf("rate %v (%v), per minute %v", rate.Value(), rate.Err(), perMin.Value())
	}
	g.Fetch(ctx) // the counter went down: no rate without SetCounterWrap
	if !errors.Is(rate.Err(), pcp.ErrValue) {
		t.Errorf("negative delta: %v %v", rate.Value(), rate.Err())
	}
}

func TestCounterWrap(t *testing.T) {
	ctx := context.Background()
	src := &fakeSource{
		descs: map[string]pcp.Desc{"c": {PMID: pmidA, Type: pcp.TypeU32, InDom: pcp.InDomNull, Sem: pcp.SemCounter}},
		results: []fakeFetch{
			{ts: 1, sets: []pcp.ValueSet{inSitu(pmidA, -6)}}, // 2^32-6
			{ts: 3, sets: []pcp.ValueSet{inSitu(pmidA, 4)}},
		},
	}
	t.Setenv("PCP_COUNTER_WRAP", "") // not read by the library
	g := New(src)
	g.SetCounterWrap(true)
	it, _ := ExtendItem[uint64](ctx, g, "c", nil)
	g.Fetch(ctx)
	g.Fetch(ctx)
	if it.Value() != 5 || it.Err() != nil {
		t.Errorf("wrapped rate %d %v, want 5", it.Value(), it.Err())
	}
}

func TestInDomNamesAndGrowth(t *testing.T) {
	ctx := context.Background()
	src := &fakeSource{
		descs: map[string]pcp.Desc{"m": {PMID: pmidA, Type: pcp.Type32, InDom: indom, Sem: pcp.SemInstant}},
		insts: map[pcp.InDom][]pmapi.Instance{indom: {{Inst: 1, Name: "one"}, {Inst: 2, Name: "two"}}},
		results: []fakeFetch{
			{ts: 1, sets: []pcp.ValueSet{inSitu(pmidA, 20, 10)}},
			{ts: 2, sets: []pcp.ValueSet{inSitu(pmidA, 20, 10)}},
			{ts: 3, sets: []pcp.ValueSet{inSitu(pmidA, 30, 20, 10)}}, // a new instance
		},
	}
	g := New(src)
	all, _ := ExtendInDom[int32](ctx, g, "m", nil)
	g.Fetch(ctx)
	got := all.Instances()
	if len(got) != 2 || got[0] != (Instance[int32]{1, "one", 10, nil}) || got[1] != (Instance[int32]{2, "two", 20, nil}) {
		t.Errorf("instances %+v", got)
	}
	g.Fetch(ctx)
	if src.getInDoms != 1 {
		t.Errorf("%d GetInDom calls for known instances, want 1", src.getInDoms)
	}
	g.Fetch(ctx)
	got = all.Instances()
	if src.getInDoms != 2 || all.Err() != nil || len(got) != 3 || got[2] != (Instance[int32]{3, "", 30, nil}) {
		t.Errorf("a new instance: %d GetInDom calls, %v, instances %+v", src.getInDoms, all.Err(), got)
	}
	if err := g.Close(); err != nil || !src.closed {
		t.Errorf("Close: %v, closed %v", err, src.closed)
	}
}

func TestPrepare(t *testing.T) {
	bytes := pcp.Desc{Type: pcp.TypeU64, Sem: pcp.SemCounter, Units: pcp.Units{DimSpace: 1, ScaleSpace: pcp.SpaceByte}}
	msec := pcp.Desc{Type: pcp.TypeDouble, Sem: pcp.SemCounter, Units: pcp.Units{DimTime: 1, ScaleTime: pcp.TimeMSec}}
	for _, c := range []struct {
		d           pcp.Desc
		scale       string
		rate, units bool
		mult        float64
		err         error
	}{
		{bytes, "", true, false, 0, nil},
		{bytes, "instant", false, false, 0, nil},
		{bytes, "rate", true, false, 0, nil},
		{bytes, "kbyte", false, true, 1, nil},
		{bytes, "kbyte/sec", true, true, 1, nil},
		{bytes, "mbyte/hour", true, true, 3600, nil},
		{bytes, "2 kbyte/min", true, true, 30, nil}, // the unit is 2 kbyte: half as many
		{bytes, "count", false, false, 0, pcp.ErrConv},
		{bytes, "byte/sec^2", false, false, 0, pcp.ErrConv},
		{msec, "sec/sec", true, true, 1e-9, nil}, // a ratio keeps the nanosecond scale, compensated
		{msec, "millisec", false, true, 1, nil},
		{pcp.Desc{Type: pcp.TypeAggregate}, "", false, false, 0, pcp.ErrType},
		{pcp.Desc{Type: pcp.TypeEvent}, "", false, false, 0, pcp.ErrType},
	} {
		conv, err := prepare(c.d, c.scale, pcp.TypeDouble)
		if !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
			t.Errorf("%q: error %v, want %v", c.scale, err, c.err)
			continue
		}
		if err == nil && (conv.rate != c.rate || conv.units != c.units || c.units && conv.mult != c.mult) {
			t.Errorf("%q: %+v", c.scale, conv)
		}
	}
}

func TestFromDouble(t *testing.T) {
	for _, c := range []struct {
		v    float64
		out  pcp.Type
		want string
		err  error
	}{
		{1.9, pcp.Type32, "1", nil},
		{-1.9, pcp.Type32, "-1", nil},
		{3e9, pcp.Type32, "", pcp.ErrTrunc},
		{3e9, pcp.TypeU32, "3000000000", nil},
		{-1, pcp.TypeU32, "", pcp.ErrSign},
		{-1, pcp.TypeU64, "", pcp.ErrSign},
		{1e20, pcp.Type64, "", pcp.ErrTrunc},
		{1e39, pcp.TypeFloat, "", pcp.ErrTrunc},
		{0.5, pcp.TypeString, "5.00000000000000000e-01", nil},
		{math.Inf(1), pcp.TypeString, "inf", nil},
	} {
		a, err := fromDouble(c.v, c.out)
		if !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
			t.Errorf("%v as %v: %v, want %v", c.v, c.out, err, c.err)
			continue
		}
		if err == nil && pcp.AtomStr(a, c.out) != c.want && a.CP != c.want {
			t.Errorf("%v as %v: %s, want %s", c.v, c.out, pcp.AtomStr(a, c.out), c.want)
		}
	}
}

// endSource is an archive context whose last instance appears only at the
// archive's end.
type endSource struct {
	fakeSource
	atEnd, visits int
}

func (e *endSource) Kind() pmapi.Kind { return pmapi.KindArchive }

func (e *endSource) AtEnd(ctx context.Context, f func() error) error {
	e.visits++
	e.atEnd++
	defer func() { e.atEnd-- }()
	return f()
}

func (e *endSource) LookupInDom(ctx context.Context, indom pcp.InDom, name string) (int32, error) {
	if name == "late" {
		if e.atEnd == 0 {
			return 0, pcp.ErrInst
		}
		return 9, nil
	}
	return e.fakeSource.LookupInDom(ctx, indom, name)
}

func TestArchiveLookupAtEnd(t *testing.T) {
	ctx := context.Background()
	descs := map[string]pcp.Desc{"m": {PMID: pmidA, Type: pcp.Type32, InDom: indom, Sem: pcp.SemInstant}}
	insts := map[pcp.InDom][]pmapi.Instance{indom: {{Inst: 1, Name: "early"}}}

	arch := &endSource{fakeSource: fakeSource{descs: descs, insts: insts}}
	g := New(arch)
	if _, err := ExtendItem[int32](ctx, g, "m", &ItemOptions{Instance: "early"}); err != nil || arch.visits != 0 {
		t.Errorf("early instance: %v, %d visits to the end", err, arch.visits)
	}
	if _, err := ExtendItem[int32](ctx, g, "m", &ItemOptions{Instance: "late"}); err != nil || arch.visits != 1 || arch.atEnd != 0 {
		t.Errorf("late instance: %v, %d visits to the end, still there %d", err, arch.visits, arch.atEnd)
	}
	if _, err := ExtendItem[int32](ctx, g, "m", &ItemOptions{Instance: "never"}); !errors.Is(err, pcp.ErrInst) || arch.visits != 2 {
		t.Errorf("missing instance: %v, %d visits", err, arch.visits)
	}
	if _, err := ExtendEvent[int32](ctx, g, "m", "m2", &EventOptions{Instance: "late"}); !errors.Is(err, pcp.ErrName) || arch.visits != 3 {
		t.Errorf("event with unknown field: %v, %d visits", err, arch.visits)
	}

	// a host context has no second chance
	host := &fakeSource{descs: descs, insts: insts}
	if _, err := ExtendItem[int32](ctx, New(host), "m", &ItemOptions{Instance: "late"}); !errors.Is(err, pcp.ErrInst) {
		t.Errorf("late instance on a host: %v", err)
	}
}

func TestClosedGroup(t *testing.T) {
	ctx := context.Background()
	src := &fakeSource{descs: map[string]pcp.Desc{"d": {PMID: pmidA, Type: pcp.Type32, InDom: pcp.InDomNull}}}
	g := New(src)
	if err := g.Close(); err != nil || !src.closed {
		t.Fatalf("Close: %v", err)
	}
	if err := g.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := ExtendItem[int32](ctx, g, "d", nil); !errors.Is(err, pcp.ErrNoContext) {
		t.Errorf("ExtendItem after Close: %v", err)
	}
	if _, err := ExtendEvent[int32](ctx, g, "d", "d", nil); !errors.Is(err, pcp.ErrNoContext) {
		t.Errorf("ExtendEvent after Close: %v", err)
	}
	if _, err := g.Fetch(ctx); !errors.Is(err, pcp.ErrNoContext) {
		t.Errorf("Fetch after Close: %v", err)
	}
}
