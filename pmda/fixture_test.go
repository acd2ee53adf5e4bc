package pmda

import (
	"context"
	"sync"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// The test agent's domain and metrics, one per behaviour under test.
const testDomain = 123

func pmid(item uint32) pcp.PMID { return pcp.NewPMID(testDomain, 1, item) }

var testInDom = pcp.NewInDom(testDomain, 7)

const (
	itemU32 = iota
	itemInst
	itemString
	itemDouble
	itemFloat
	itemU64
	itemNoSupport
	itemAppVersion
	itemNoValue
	itemPartial
	itemAllFail
	itemAggregate
	item64
)

func testMetrics() []Metric {
	d := func(item uint32, t pcp.Type, indom pcp.InDom) pcp.Desc {
		// Domain 0 on purpose: New puts in the agent's.
		return pcp.Desc{PMID: pcp.NewPMID(0, 1, item), Type: t, InDom: indom, Sem: pcp.SemInstant}
	}
	return []Metric{
		{Name: "test.u32", Desc: d(itemU32, pcp.TypeU32, pcp.InDomNull), OneLine: "one line", Help: "full\nhelp",
			Labels: []Label{{"units", "widgets"}, {"answer", 42}}},
		{Name: "test.inst", Desc: d(itemInst, pcp.Type32, testInDom), OneLine: "per instance"},
		{Name: "test.string", Desc: d(itemString, pcp.TypeString, pcp.InDomNull)},
		{Name: "test.double", Desc: d(itemDouble, pcp.TypeDouble, pcp.InDomNull)},
		{Name: "test.float", Desc: d(itemFloat, pcp.TypeFloat, pcp.InDomNull)},
		{Name: "test.u64", Desc: d(itemU64, pcp.TypeU64, pcp.InDomNull)},
		{Name: "test.bad.nosupport", Desc: d(itemNoSupport, pcp.TypeNoSupport, pcp.InDomNull)},
		{Name: "test.bad.appversion", Desc: d(itemAppVersion, pcp.Type32, pcp.InDomNull)},
		{Name: "test.bad.novalue", Desc: d(itemNoValue, pcp.Type32, pcp.InDomNull)},
		{Name: "test.partial", Desc: d(itemPartial, pcp.Type32, testInDom)},
		{Name: "test.bad.allfail", Desc: d(itemAllFail, pcp.Type32, testInDom)},
		{Name: "test.aggregate", Desc: d(itemAggregate, pcp.TypeAggregate, pcp.InDomNull)},
		{Name: "test.s64", Desc: d(item64, pcp.Type64, pcp.InDomNull)},
	}
}

func testInDoms() []InDom {
	return []InDom{{
		InDom:   pcp.NewInDom(0, 7),
		OneLine: "some instances",
		Labels:  []Label{{"kind", "test"}},
		Instances: []Instance{
			{ID: 0, Name: "zero"},
			{ID: 1, Name: "one two", Labels: []Label{{"odd", true}}},
			{ID: 5, Name: "five"},
		},
	}}
}

// testFetcher answers the test metrics and records the hooks' calls.
type testFetcher struct {
	mu        sync.Mutex
	ended     []Client
	attrs     []string
	refreshed int
	stored    []pcp.PMID
}

func (f *testFetcher) Fetch(_ context.Context, m *Metric, inst int32) (pcp.Atom, error) {
	switch m.Desc.PMID.Item() {
	case itemU32:
		return pcp.Atom{UL: 0xdeadbeef}, nil
	case itemInst:
		return pcp.Atom{L: -inst}, nil
	case itemString:
		return pcp.Atom{CP: "hello"}, nil
	case itemDouble:
		return pcp.Atom{D: 2.5}, nil
	case itemFloat:
		return pcp.Atom{F: -1.25}, nil
	case itemU64:
		return pcp.Atom{ULL: 1 << 40}, nil
	case item64:
		return pcp.Atom{LL: -1 << 40}, nil
	case itemNoSupport:
		return pcp.Atom{}, nil
	case itemAppVersion:
		return pcp.Atom{}, pcp.ErrAppVersion
	case itemNoValue:
		return pcp.Atom{}, ErrNoValue
	case itemPartial:
		if inst == 1 {
			return pcp.Atom{}, pcp.ErrValue
		}
		return pcp.Atom{L: inst}, nil
	case itemAllFail:
		if inst == 0 {
			return pcp.Atom{}, pcp.ErrValue
		}
		return pcp.Atom{}, pcp.ErrInst
	case itemAggregate:
		return pcp.Atom{VBP: &pcp.ValueBlock{Type: pcp.TypeAggregate, Data: []byte("abc")}}, nil
	}
	return pcp.Atom{}, pcp.ErrPMID
}

func (f *testFetcher) Refresh(context.Context, []pcp.PMID) error {
	f.mu.Lock()
	f.refreshed++
	f.mu.Unlock()
	return nil
}

func (f *testFetcher) EndContext(c Client) {
	f.mu.Lock()
	f.ended = append(f.ended, c)
	f.mu.Unlock()
}

func (f *testFetcher) Attribute(c Client, key pdu.AttrKey, value []byte) error {
	f.mu.Lock()
	f.attrs = append(f.attrs, string(value))
	f.mu.Unlock()
	return nil
}

// storer is a testFetcher that also accepts stores to test.u32.
type storer struct{ *testFetcher }

func (s storer) Store(_ context.Context, _ Client, set *pcp.ValueSet) error {
	if set.PMID != pmid(itemU32) {
		return pcp.ErrPermission
	}
	s.mu.Lock()
	s.stored = append(s.stored, set.PMID)
	s.mu.Unlock()
	return nil
}

func newTestAgent(t testing.TB, f Fetcher) *Agent {
	t.Helper()
	a, err := New(Config{Name: "pmdatest", Domain: testDomain, Metrics: testMetrics(), InDoms: testInDoms(), Fetcher: f})
	if err != nil {
		t.Fatal(err)
	}
	return a
}
