package mmv

import (
	"fmt"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// The registries of testdata/harness/writer.c, written with this package:
// the same metrics, instance domains, labels and values, added in the
// same order.

var (
	none = pcp.Units{}
	kbps = pcp.Units{DimSpace: 1, DimTime: -1, ScaleSpace: pcp.SpaceKByte, ScaleTime: pcp.TimeSec}
	ones = pcp.Units{DimCount: 1}
	usec = pcp.Units{DimTime: 1, ScaleTime: pcp.TimeUSec}
)

type scenario struct {
	name  string
	flags Flags
	build func(t testing.TB, dir, file string, flags Flags) *Registry
}

var scenarios = []scenario{
	{"v1", Sentinel, scenarioV1},
	{"v1-noprefix", NoPrefix, scenarioV1},
	{"v2", Process, scenarioV2},
	{"v3", Sentinel | NoPrefix, scenarioV3},
	{"many", Sentinel, scenarioMany},
}

// must returns v, or stops the scenario: build recovers the failure and
// fails the test with it.
func must[T any](v T, err error) T {
	if err != nil {
		panic(failure{err})
	}
	return v
}

type failure struct{ err error }

// build runs a scenario's builder, failing t on an error.
func (sc scenario) run(t testing.TB, dir, file string) (r *Registry) {
	t.Helper()
	defer func() {
		if e := recover(); e != nil {
			f, ok := e.(failure)
			if !ok {
				panic(e)
			}
			t.Fatalf("scenario %s: %v", sc.name, f.err)
		}
	}()
	return sc.build(t, dir, file, sc.flags)
}

func scenarioV1(t testing.TB, dir, file string, flags Flags) *Registry {
	r := must(New(file, Options{Dir: dir, Cluster: 42, Flags: flags}))
	products := must(r.AddInDom([]Instance{{ID: 0, Name: "Anvils"}, {ID: 1, Name: "Rockets"}, {ID: 2, Name: "Giant_Rubber_Bands"}},
		InDomOptions{Serial: 7, ShortHelp: "products", LongHelp: "Products made by the factory"}))
	queues := must(r.AddInDom([]Instance{{ID: 10, Name: "q10"}, {ID: 20, Name: "q20"}}, InDomOptions{Serial: 9, ShortHelp: "queues"}))
	pc := must(r.CounterVec("products.count", products, MetricOptions{Item: 7, Units: ones,
		ShortHelp: "Acme factory product throughput", LongHelp: "Monotonic increasing counter of products produced."}))
	pt := must(r.CounterVec("products.time", products, MetricOptions{Item: 8, Units: usec, ShortHelp: "Machine time"}))
	i32 := must(r.AddMetric("i32", Int32, SemInstant, MetricOptions{Item: 1, ShortHelp: "a signed 32-bit gauge"}))
	u32 := must(r.AddMetric("u32", Uint32, SemDiscrete, MetricOptions{Item: 2}))
	i64 := must(r.AddMetric("i64", Int64, SemInstant, MetricOptions{Item: 3, Units: kbps, LongHelp: "long help only"}))
	fl := must(r.AddMetric("float", Float, SemInstant, MetricOptions{Item: 4, InDom: queues, ShortHelp: "per queue"}))
	db := must(r.AddMetric("double", Double, SemCounter, MetricOptions{Item: 5, Units: usec}))
	text := must(r.AddMetric("text", String, SemDiscrete, MetricOptions{Item: 6, ShortHelp: "a string"}))
	texts := must(r.AddMetric("texts", String, SemInstant, MetricOptions{Item: 10, InDom: queues}))
	el := must(r.Timer("elapsed", MetricOptions{Item: 11, ShortHelp: "timed sections"}))
	missing := must(r.AddMetric("missing", Uint64, SemInstant, MetricOptions{Item: 12}))
	must(r.AddMetric("missing_text", String, SemInstant, MetricOptions{Item: 13}))
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	c, _ := pc.With("Anvils")
	c.Add(3)
	c, _ = pc.With("Rockets")
	c.Add(5)
	c, _ = pt.With("Giant_Rubber_Bands")
	c.Add(70000)
	i32.Value().Set(-17)
	u32.Value().SetFloat(4000000000)
	i64.Value().SetFloat(-1234567890123)
	fl.InstanceByName("q10").SetFloat(1.5)
	fl.InstanceByName("q20").SetFloat(-0.25)
	db.Value().AddFloat(2.75)
	text.Value().SetString("hello, world")
	texts.InstanceByName("q10").SetString("ten")
	el.Add(123456)
	missing.Value().SetSentinel()
	return r
}

const (
	longMetric = "a.metric.name.that.is.longer.than.sixty.four.bytes.so.it.needs.version.two"
	longInst   = "an instance name that is also longer than sixty-four bytes, with spaces"
)

func scenarioV2(t testing.TB, dir, file string, flags Flags) *Registry {
	r := must(New(file, Options{Dir: dir, Cluster: 43, Flags: flags}))
	d := must(r.AddInDom([]Instance{{ID: 5, Name: "short"}, {ID: 6, Name: longInst}}, InDomOptions{Serial: 1, ShortHelp: "long names"}))
	m := must(r.AddMetric(longMetric, Uint32, SemCounter, MetricOptions{Item: 1, InDom: d, ShortHelp: "long", LongHelp: "a long name"}))
	s := must(r.Text("short", MetricOptions{Item: 2}))
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	m.InstanceByName(longInst).Add(9)
	s.Set("v2")
	return r
}

func scenarioV3(t testing.TB, dir, file string, flags Flags) *Registry {
	r := must(New(file, Options{Dir: dir, Cluster: 44, Flags: flags,
		Labels: []Label{StringLabel("app", "acme"), {Name: "replica", Value: "3", Optional: true}}}))
	d := must(r.AddInDom([]Instance{
		{ID: 1, Name: "north", Labels: []Label{{Name: "primary", Value: "true"}}},
		{ID: 2, Name: "south", Labels: []Label{{Name: "tags", Value: `["a","b"]`}}},
	}, InDomOptions{Serial: 2, ShortHelp: "sites", Labels: []Label{StringLabel("region", "eu")}}))
	hits := must(r.CounterVec("hits", d, MetricOptions{Item: 1, ShortHelp: "hits per site",
		Labels: []Label{{Name: "kind", Value: `{"a":1}`}}}))
	load := must(r.Gauge("load", MetricOptions{Item: 2, Labels: []Label{{Name: "empty", Value: "null", Optional: true}}}))
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	c, _ := hits.At(2)
	c.Add(11)
	load.Set(0.5)
	return r
}

// scenarioMany is 400 metrics of every type and semantics, a fifth of
// them over a domain of 50 instances, help on all, labels on some.
func scenarioMany(t testing.TB, dir, file string, flags Flags) *Registry {
	types := []Type{Int32, Uint32, Int64, Uint64, Float, Double, String, Elapsed}
	sems := []Semantics{SemCounter, SemInstant, SemDiscrete}
	r := must(New(file, Options{Dir: dir, Cluster: 45, Flags: flags, Labels: []Label{StringLabel("app", "many")}}))
	insts := make([]Instance, 50)
	for i := range insts {
		insts[i] = Instance{ID: int32(i), Name: fmt.Sprintf("worker%02d", i)}
	}
	workers := must(r.AddInDom(insts, InDomOptions{Serial: 3, ShortHelp: "workers", LongHelp: "worker threads"}))
	metrics := make([]*Metric, 401)
	for i := 1; i <= 400; i++ {
		typ, sem := types[i%8], sems[i%3]
		if typ == Elapsed {
			sem = SemCounter
		}
		o := MetricOptions{Item: uint32(i), ShortHelp: fmt.Sprintf("metric number %d", i)}
		if i%2 == 1 {
			o.LongHelp = o.ShortHelp
		}
		if i%5 == 0 {
			o.InDom = workers
		}
		if i%40 == 0 {
			o.Labels = []Label{NumberLabel("number", float64(i))}
		}
		metrics[i] = must(r.AddMetric(fmt.Sprintf("group%d.metric%03d", i/50, i), typ, sem, o))
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 400; i++ {
		m := metrics[i]
		for j := 0; j < 50; j += 7 {
			v := m.Value()
			if i%5 == 0 {
				v = m.Instance(int32(j))
			} else if j > 0 {
				break
			}
			if types[i%8] == String {
				v.SetString(fmt.Sprintf("text %d.%d", i, j))
			} else {
				v.SetFloat(float64(i)*1.5 + float64(j))
			}
		}
	}
	return r
}
