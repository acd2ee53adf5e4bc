package pmda

import (
	"context"
	"errors"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

var bg = context.Background()

func TestNewRefuses(t *testing.T) {
	f := FetchFunc(func(context.Context, *Metric, int32) (pcp.Atom, error) { return pcp.Atom{}, nil })
	m := testMetrics()
	cases := []struct {
		name string
		cfg  Config
	}{
		{"domain too big", Config{Domain: 511, Fetcher: f}},
		{"no fetcher", Config{Domain: 1}},
		{"duplicate PMID", Config{Domain: 1, Fetcher: f, Metrics: []Metric{m[0], m[0]}}},
		{"unknown indom", Config{Domain: 1, Fetcher: f, Metrics: []Metric{m[1]}}},
		{"duplicate indom", Config{Domain: 1, Fetcher: f, InDoms: append(testInDoms(), testInDoms()...)}},
		{"bad name", Config{Domain: 1, Fetcher: f, Metrics: []Metric{{Name: "a..b", Desc: m[0].Desc}}}},
	}
	for _, c := range cases {
		if _, err := New(c.cfg); err == nil {
			t.Errorf("%s: New accepted it", c.name)
		}
	}
	// Domain 0 is an agent's domain as any other, as libpcp_pmda's
	// pmdaInit takes it (dbpmda's "open dso" without a domain).
	a, err := New(Config{Fetcher: f, Metrics: m[:1]})
	if err != nil {
		t.Fatalf("domain 0: %v", err)
	}
	if d, err := a.Desc(bg, 0, pcp.NewPMID(0, m[0].Desc.PMID.Cluster(), m[0].Desc.PMID.Item())); err != nil || d.PMID.Domain() != 0 {
		t.Errorf("domain 0: Desc = %+v, %v", d, err)
	}
}

func TestDesc(t *testing.T) {
	a := newTestAgent(t, &testFetcher{})
	d, err := a.Desc(bg, 0, pmid(itemInst))
	if err != nil || d.PMID != pmid(itemInst) || d.InDom != testInDom || d.Type != pcp.Type32 {
		t.Errorf("Desc = %+v, %v", d, err)
	}
	if _, err := a.Desc(bg, 0, pcp.NewPMID(testDomain, 9, 9)); !errors.Is(err, pcp.ErrPMID) {
		t.Errorf("unknown PMID: %v, want PM_ERR_PMID", err)
	}
}

func TestText(t *testing.T) {
	a := newTestAgent(t, &testFetcher{})
	cases := []struct {
		ident uint32
		typ   int32
		want  string
		err   error
	}{
		{uint32(pmid(itemU32)), pdu.TextPMID | pdu.TextOneLine, "one line", nil},
		{uint32(pmid(itemU32)), pdu.TextPMID | pdu.TextHelp, "full\nhelp", nil},
		{uint32(pmid(itemInst)), pdu.TextPMID | pdu.TextOneLine, "per instance", nil},
		{uint32(pmid(itemInst)), pdu.TextPMID | pdu.TextHelp, "", pcp.ErrText},
		{uint32(pmid(99)), pdu.TextPMID | pdu.TextOneLine, "", pcp.ErrText},
		{uint32(testInDom), pdu.TextInDom | pdu.TextOneLine, "some instances", nil},
		{uint32(testInDom), pdu.TextInDom | pdu.TextHelp, "", pcp.ErrText},
		{uint32(pcp.NewInDom(testDomain, 99)), pdu.TextInDom | pdu.TextHelp, "", pcp.ErrText},
	}
	for _, c := range cases {
		got, err := a.Text(bg, 0, c.ident, c.typ)
		if got != c.want || !errors.Is(err, c.err) || (c.err == nil && err != nil) {
			t.Errorf("Text(%#x, %d) = %q, %v; want %q, %v", c.ident, c.typ, got, err, c.want, c.err)
		}
	}
}

func ie(inst int32, name string) pdu.InstEntry { return pdu.InstEntry{Inst: inst, Name: name} }

func TestInstance(t *testing.T) {
	a := newTestAgent(t, &testFetcher{})
	cases := []struct {
		name  string
		indom pcp.InDom
		inst  int32
		iname string
		want  []pdu.InstEntry
		err   error
	}{
		{"all", testInDom, pcp.InstNull, "", []pdu.InstEntry{ie(0, "zero"), ie(1, "one two"), ie(5, "five")}, nil},
		{"by number", testInDom, 5, "", []pdu.InstEntry{ie(pcp.InstNull, "five")}, nil},
		{"unknown number", testInDom, 6, "", nil, pcp.ErrInst},
		{"by name", testInDom, pcp.InstNull, "zero", []pdu.InstEntry{ie(0, "")}, nil},
		{"whole spaced name", testInDom, pcp.InstNull, "one two", []pdu.InstEntry{ie(1, "")}, nil},
		{"first word", testInDom, pcp.InstNull, "one", []pdu.InstEntry{ie(1, "")}, nil},
		{"spaced name matches only whole", testInDom, pcp.InstNull, "one three", nil, pcp.ErrInst},
		{"prefix is no match", testInDom, pcp.InstNull, "fiv", nil, pcp.ErrInst},
		{"number and name", testInDom, 0, "zero", nil, pcp.ErrInst},
		{"unknown indom", pcp.NewInDom(testDomain, 1), pcp.InstNull, "", nil, pcp.ErrInDom},
	}
	for _, c := range cases {
		res, err := a.Instance(bg, 0, c.indom, c.inst, c.iname)
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("%s: err %v, want %v", c.name, err, c.err)
			}
			continue
		}
		if err != nil || res.InDom != c.indom || len(res.Entries) != len(c.want) {
			t.Errorf("%s: %+v, %v", c.name, res, err)
			continue
		}
		for i := range c.want {
			if res.Entries[i] != c.want[i] {
				t.Errorf("%s: entry %d = %+v, want %+v", c.name, i, res.Entries[i], c.want[i])
			}
		}
	}
}

func TestFetch(t *testing.T) {
	f := &testFetcher{}
	a := newTestAgent(t, f)
	type val struct {
		inst int32
		atom pcp.Atom
	}
	cases := []struct {
		item   uint32
		numval int32 // or error code
		vals   []val
	}{
		{itemU32, 1, []val{{pcp.InstNull, pcp.Atom{UL: 0xdeadbeef}}}},
		{itemInst, 3, []val{{0, pcp.Atom{L: 0}}, {1, pcp.Atom{L: -1}}, {5, pcp.Atom{L: -5}}}},
		{itemString, 1, []val{{pcp.InstNull, pcp.Atom{CP: "hello"}}}},
		{itemDouble, 1, []val{{pcp.InstNull, pcp.Atom{D: 2.5}}}},
		{itemFloat, 1, []val{{pcp.InstNull, pcp.Atom{F: -1.25}}}},
		{itemU64, 1, []val{{pcp.InstNull, pcp.Atom{ULL: 1 << 40}}}},
		{item64, 1, []val{{pcp.InstNull, pcp.Atom{LL: -1 << 40}}}},
		{itemNoSupport, int32(pcp.ErrType), nil},
		{itemAppVersion, int32(pcp.ErrAppVersion), nil},
		{itemNoValue, 0, nil},
		{itemPartial, 2, []val{{0, pcp.Atom{L: 0}}, {5, pcp.Atom{L: 5}}}},
		{itemAllFail, int32(pcp.ErrInst), nil}, // the last error
		{99, int32(pcp.ErrPMID), nil},
	}
	var ids []pcp.PMID
	for _, c := range cases {
		ids = append(ids, pmid(c.item))
	}
	for round := range 2 { // the second reuses the first's storage
		res, err := a.Fetch(bg, 3, ids)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Sets) != len(cases) {
			t.Fatalf("round %d: %d sets, want %d", round, len(res.Sets), len(cases))
		}
		for i, c := range cases {
			s := &res.Sets[i]
			if s.PMID != pmid(c.item) || s.NumVal != c.numval || len(s.Values) != len(c.vals) {
				t.Errorf("round %d item %d: pmid %v numval %d with %d values, want numval %d", round, c.item, s.PMID, s.NumVal, len(s.Values), c.numval)
				continue
			}
			m := a.Metric(s.PMID)
			for j, v := range c.vals {
				if s.Values[j].Inst != v.inst {
					t.Errorf("item %d value %d: inst %d, want %d", c.item, j, s.Values[j].Inst, v.inst)
				}
				got, err := pcp.ExtractValue(s.ValFmt, &s.Values[j], m.Desc.Type, m.Desc.Type)
				if err != nil || got != v.atom {
					t.Errorf("item %d value %d: %+v, %v; want %+v", c.item, j, got, err, v.atom)
				}
			}
		}
	}
	if f.refreshed != 2 {
		t.Errorf("Refresh called %d times, want 2", f.refreshed)
	}
}

func TestFetchAggregate(t *testing.T) {
	a := newTestAgent(t, &testFetcher{})
	res, err := a.Fetch(bg, 0, []pcp.PMID{pmid(itemAggregate)})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Sets[0]
	if s.NumVal != 1 || s.ValFmt != pcp.ValDPtr || string(s.Values[0].Block.Data) != "abc" || s.Values[0].Block.Type != pcp.TypeAggregate {
		t.Errorf("aggregate set %+v", s)
	}
}

func TestFetchProfile(t *testing.T) {
	a := newTestAgent(t, &testFetcher{})
	other := pcp.NewInDom(testDomain, 8)
	cases := []struct {
		name    string
		profile pdu.Profile
		want    []int32
	}{
		{"none", pdu.Profile{}, []int32{0, 1, 5}},
		{"exclude all but", pdu.Profile{State: pdu.ProfileInclude, InDoms: []pdu.InDomProfile{
			{InDom: testInDom, State: pdu.ProfileExclude, Insts: []int32{5, 0}}}}, []int32{0, 5}},
		{"include all but", pdu.Profile{State: pdu.ProfileInclude, InDoms: []pdu.InDomProfile{
			{InDom: testInDom, State: pdu.ProfileInclude, Insts: []int32{1}}}}, []int32{0, 5}},
		{"global exclude", pdu.Profile{State: pdu.ProfileExclude, InDoms: []pdu.InDomProfile{
			{InDom: other, State: pdu.ProfileInclude}}}, nil},
		{"first entry of a domain counts", pdu.Profile{State: pdu.ProfileInclude, InDoms: []pdu.InDomProfile{
			{InDom: testInDom, State: pdu.ProfileExclude, Insts: []int32{1}},
			{InDom: testInDom, State: pdu.ProfileInclude}}}, []int32{1}},
		{"other indom only", pdu.Profile{State: pdu.ProfileInclude, InDoms: []pdu.InDomProfile{
			{InDom: other, State: pdu.ProfileExclude}}}, []int32{0, 1, 5}},
	}
	for _, c := range cases {
		a.Profile(&c.profile)
		res, err := a.Fetch(bg, 0, []pcp.PMID{pmid(itemInst), pmid(itemU32)})
		if err != nil {
			t.Fatal(err)
		}
		var got []int32
		for _, v := range res.Sets[0].Values {
			got = append(got, v.Inst)
		}
		if len(got) != len(c.want) || res.Sets[0].NumVal != int32(len(c.want)) {
			t.Errorf("%s: instances %v, want %v", c.name, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: instances %v, want %v", c.name, got, c.want)
				break
			}
		}
		if res.Sets[1].NumVal != 1 {
			t.Errorf("%s: the profile touched a metric without instances: numval %d", c.name, res.Sets[1].NumVal)
		}
	}
}

func TestFetchCanceled(t *testing.T) {
	a := newTestAgent(t, &testFetcher{})
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if _, err := a.Fetch(ctx, 0, []pcp.PMID{pmid(itemU32)}); !errors.Is(err, context.Canceled) {
		t.Errorf("Fetch with a canceled context: %v", err)
	}
}

func TestStore(t *testing.T) {
	f := &testFetcher{}
	set := func(id pcp.PMID) *pcp.Result {
		return &pcp.Result{Sets: []pcp.ValueSet{{PMID: id, NumVal: 1, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: 1}}}}}
	}
	cases := []struct {
		name string
		f    Fetcher
		r    *pcp.Result
		want error
	}{
		{"default refuses", f, set(pmid(itemU32)), pcp.ErrPermission},
		{"storer accepts", storer{f}, set(pmid(itemU32)), nil},
		{"storer refuses", storer{f}, set(pmid(itemInst)), pcp.ErrPermission},
		{"unknown PMID", storer{f}, set(pmid(99)), pcp.ErrPMID},
	}
	for _, c := range cases {
		err := newTestAgent(t, c.f).Store(bg, 0, c.r)
		if (c.want == nil) != (err == nil) || (c.want != nil && !errors.Is(err, c.want)) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if len(f.stored) != 1 {
		t.Errorf("stored %v", f.stored)
	}
}

func TestLabel(t *testing.T) {
	a := newTestAgent(t, &testFetcher{})
	cases := []struct {
		name  string
		ident uint32
		level uint8
		want  []string // JSON per set
		insts []int32
	}{
		{"context", uint32(pcp.PMIDNull), pcp.LabelContext, nil, nil},
		{"domain", testDomain, pcp.LabelDomain, []string{`{"agent":"test"}`}, []int32{pcp.InstNull}},
		{"indom", uint32(testInDom), pcp.LabelInDom, []string{`{"kind":"test"}`}, []int32{pcp.InstNull}},
		{"cluster", uint32(pmid(itemU32)), pcp.LabelCluster, nil, nil},
		{"item sorted", uint32(pmid(itemU32)), pcp.LabelItem, []string{`{"answer":42,"units":"widgets"}`}, []int32{pcp.InstNull}},
		{"item none", uint32(pmid(itemInst)), pcp.LabelItem, nil, nil},
		{"instances", uint32(testInDom), pcp.LabelInstances, []string{"", `{"odd":true}`, ""}, []int32{0, 1, 5}},
		{"null indom instances", uint32(pcp.InDomNull), pcp.LabelInstances, []string{""}, []int32{pcp.InstNull}},
	}
	for _, c := range cases {
		sets, err := a.Label(bg, 0, c.ident, c.level)
		if err != nil || len(sets) != len(c.want) {
			t.Errorf("%s: %d sets, %v; want %d", c.name, len(sets), err, len(c.want))
			continue
		}
		for i, s := range sets {
			if s.JSON != c.want[i] || s.Inst != c.insts[i] || int(s.NLabels) != len(s.Labels) {
				t.Errorf("%s: set %d = inst %d %q, want inst %d %q", c.name, i, s.Inst, s.JSON, c.insts[i], c.want[i])
			}
			for j := range s.Labels {
				if s.Labels[j].Flags != c.level {
					t.Errorf("%s: label %d flags %#x", c.name, j, s.Labels[j].Flags)
				}
			}
		}
	}
	sets, _ := a.Label(bg, 0, uint32(pmid(itemU32)), pcp.LabelItem)
	if s := &sets[0]; s.LabelName(0) != "answer" || s.LabelValue(0) != "42" || s.LabelName(1) != "units" || s.LabelValue(1) != `"widgets"` {
		t.Errorf("label index: %q=%q %q=%q", s.LabelName(0), s.LabelValue(0), s.LabelName(1), s.LabelValue(1))
	}
	if _, err := a.Label(bg, 0, 0, 0x40); !errors.Is(err, pcp.ErrType) {
		t.Errorf("bad level: %v", err)
	}
}

func TestLabelName(t *testing.T) {
	for in, want := range map[string]string{
		"pmdatrivial": "trivial", "pmda": "pmda", "sample DSO": "sample", "pmdaxyz DSO": "xyz", "plain": "plain",
	} {
		if got := labelName(in); got != want {
			t.Errorf("labelName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNames(t *testing.T) {
	a := newTestAgent(t, &testFetcher{})
	if id, err := a.LookupName(bg, 0, "test.inst"); err != nil || id != pmid(itemInst) {
		t.Errorf("LookupName = %v, %v", id, err)
	}
	if _, err := a.LookupName(bg, 0, "test.nosuch"); !errors.Is(err, pcp.ErrName) {
		t.Errorf("LookupName unknown: %v", err)
	}
	if names, err := a.Names(bg, 0, pmid(itemU32)); err != nil || len(names) != 1 || names[0] != "test.u32" {
		t.Errorf("Names = %v, %v", names, err)
	}
	if _, err := a.Names(bg, 0, pmid(99)); !errors.Is(err, pcp.ErrPMID) {
		t.Errorf("Names unknown: %v", err)
	}
	names, status, err := a.Children(bg, 0, "test.bad")
	if err != nil || len(names) != 4 || len(status) != 4 {
		t.Errorf("Children = %v %v %v", names, status, err)
	}
	all, err := a.Traverse(bg, 0, "test")
	if err != nil || len(all) != len(testMetrics()) {
		t.Errorf("Traverse = %v, %v", all, err)
	}
	// An agent without names answers as libpcp_pmda's defaults.
	b, err := New(Config{Name: "x", Domain: 1, Fetcher: &testFetcher{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.LookupName(bg, 0, "x"); !errors.Is(err, pcp.ErrName) {
		t.Errorf("no names, LookupName: %v", err)
	}
	if _, err := b.Names(bg, 0, 1); !errors.Is(err, pcp.ErrPMID) {
		t.Errorf("no names, Names: %v", err)
	}
	if _, _, err := b.Children(bg, 0, ""); !errors.Is(err, pcp.ErrName) {
		t.Errorf("no names, Children: %v", err)
	}
	if _, err := b.Traverse(bg, 0, ""); !errors.Is(err, pcp.ErrName) {
		t.Errorf("no names, Traverse: %v", err)
	}
}

// TestMetricsOwned: New copies the table it is given unless told it
// owns it, and answers the same either way.
func TestMetricsOwned(t *testing.T) {
	f := FetchFunc(func(context.Context, *Metric, int32) (pcp.Atom, error) { return pcp.Atom{}, nil })
	for _, owned := range []bool{false, true} {
		m := testMetrics()
		m0 := m[0]
		a, err := New(Config{Domain: 7, Fetcher: f, Metrics: m, InDoms: testInDoms(), MetricsOwned: owned})
		if err != nil {
			t.Fatalf("owned %v: %v", owned, err)
		}
		want := pcp.NewPMID(7, m0.Desc.PMID.Cluster(), m0.Desc.PMID.Item())
		if d, err := a.Desc(bg, 0, want); err != nil || d.PMID != want {
			t.Errorf("owned %v: Desc = %+v, %v", owned, d, err)
		}
		if kept := a.Metric(want) == &m[0]; kept != owned {
			t.Errorf("owned %v: the agent's entry is the caller's: %v", owned, kept)
		}
		if !owned && m[0].Desc.PMID != m0.Desc.PMID {
			t.Errorf("a copied table was written: %v", m[0].Desc.PMID)
		}
	}
}
