package pmda

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// hooked is a Fetcher with every optional hook: a changing instance
// domain, a descriptor that stores change, requests counted per client,
// whole value sets, and a namespace of its own.
type hooked struct {
	insts    []Instance
	requests map[Client][]pdu.Type
	profiles int
	refuse   error
	typ      pcp.Type
}

func (h *hooked) Fetch(context.Context, *Metric, int32) (pcp.Atom, error) {
	return pcp.Atom{}, errors.New("not called")
}

func (h *hooked) BeginRequest(_ context.Context, c Client, t pdu.Type, _ uint32) error {
	h.requests[c] = append(h.requests[c], t)
	return h.refuse
}

func (h *hooked) ProfileArrived(Client) { h.profiles++ }

func (h *hooked) Instances(_ context.Context, _ Client, indom pcp.InDom) ([]Instance, error) {
	if indom != testInDom {
		return nil, pcp.ErrInDom
	}
	return h.insts, nil
}

func (h *hooked) Desc(_ context.Context, _ Client, pmid pcp.PMID) (pcp.Desc, error) {
	return pcp.Desc{PMID: pmid, Type: h.typ, InDom: pcp.InDomNull}, nil
}

func (h *hooked) FetchSet(_ context.Context, _ Client, pmid pcp.PMID, p ProfileView, add func(int32, pcp.Type, *pcp.Atom) error) error {
	switch pmid.Item() {
	case itemInst: // a value per selected instance, numbered ten times over
		for _, in := range h.insts {
			if p.Selects(testInDom, in.ID) {
				if err := add(in.ID*10, pcp.Type32, &pcp.Atom{L: in.ID}); err != nil {
					return err
				}
			}
		}
		return nil
	case itemAppVersion:
		add(1, pcp.Type32, &pcp.Atom{L: 1}) // dropped with the error
		return pcp.ErrAppVersion
	case itemNoValue:
		return ErrNoValue
	case itemAllFail:
		return FailRequest(pcp.ErrNoAgent)
	case itemPartial:
		if !p.Explicit(testInDom) {
			return pcp.ErrProfile
		}
		return add(pcp.InstNull, pcp.TypeString, &pcp.Atom{CP: "explicit"})
	}
	return add(pcp.InstNull, pcp.TypeU64, &pcp.Atom{ULL: 7})
}

func (h *hooked) LookupName(context.Context, Client, string) (pcp.PMID, error) {
	return pmid(itemU32), nil
}
func (h *hooked) Names(context.Context, Client, pcp.PMID) ([]string, error) {
	return []string{"hooked.name"}, nil
}
func (h *hooked) Children(context.Context, Client, string) ([]string, []int32, error) {
	return []string{"kid"}, []int32{pdu.PMNSLeafStatus}, nil
}
func (h *hooked) Traverse(context.Context, Client, string) ([]string, error) {
	return []string{"hooked.kid"}, nil
}

func newHooked(t *testing.T) (*Agent, *hooked) {
	t.Helper()
	h := &hooked{insts: []Instance{{ID: 1, Name: "one"}}, requests: map[Client][]pdu.Type{}, typ: pcp.TypeU32}
	a, err := New(Config{Name: "pmdahooked", Domain: testDomain, Metrics: testMetrics(), InDoms: testInDoms(), Fetcher: h})
	if err != nil {
		t.Fatal(err)
	}
	return a, h
}

func TestHooks(t *testing.T) {
	a, h := newHooked(t)
	ctx := context.Background()

	h.insts = append(h.insts, Instance{ID: 5, Name: "five", Labels: []Label{{"n", 5}}})
	res, err := a.Instance(ctx, 3, testInDom, pcp.InstNull, "")
	if err != nil || len(res.Entries) != 2 || res.Entries[1].Name != "five" {
		t.Errorf("instances from the lister: %+v %v", res, err)
	}
	if res, err := a.Instance(ctx, 3, testInDom, pcp.InstNull, "five"); err != nil || res.Entries[0].Inst != 5 {
		t.Errorf("lookup by name: %+v %v", res, err)
	}
	sets, err := a.Label(ctx, 3, uint32(testInDom), pcp.LabelInstances)
	if err != nil || len(sets) != 2 || sets[1].JSON != `{"n":5}` {
		t.Errorf("instance labels from the lister: %+v %v", sets, err)
	}

	r, err := a.Fetch(ctx, 4, []pcp.PMID{pmid(itemInst), pmid(itemAppVersion), pmid(itemNoValue), pmid(itemU32), pmid(itemPartial)})
	if err != nil {
		t.Fatal(err)
	}
	if s := r.Sets[0]; s.NumVal != 2 || s.Values[1].Inst != 50 || s.Values[1].LVal != 5 {
		t.Errorf("set fetcher's instances: %+v", s)
	}
	if s := r.Sets[1]; s.NumVal != int32(pcp.ErrAppVersion) || len(s.Values) != 0 {
		t.Errorf("set error: %+v", s)
	}
	if s := r.Sets[2]; s.NumVal != 0 {
		t.Errorf("no values: %+v", s)
	}
	if s := r.Sets[3]; s.NumVal != 1 || s.ValFmt != pcp.ValDPtr || s.Values[0].Block.Type != pcp.TypeU64 {
		t.Errorf("64-bit value: %+v", s)
	}
	if s := r.Sets[4]; s.NumVal != int32(pcp.ErrProfile) {
		t.Errorf("no explicit profile: %+v", s)
	}
	a.ProfileFrom(4, &pdu.Profile{State: pdu.ProfileInclude, InDoms: []pdu.InDomProfile{
		{InDom: testInDom, State: pdu.ProfileExclude, Insts: []int32{5}},
	}})
	if h.profiles != 1 {
		t.Errorf("profile hook called %d times", h.profiles)
	}
	r, err = a.Fetch(ctx, 4, []pcp.PMID{pmid(itemInst), pmid(itemPartial)})
	if err != nil {
		t.Fatal(err)
	}
	if s := r.Sets[0]; s.NumVal != 1 || s.Values[0].Inst != 50 {
		t.Errorf("profile of instance 5 only: %+v", s)
	}
	if s := r.Sets[1]; s.NumVal != 1 || string(s.Values[0].Block.Data) != "explicit\x00" {
		t.Errorf("explicit profile: %+v", s)
	}
	if _, err := a.Fetch(ctx, 4, []pcp.PMID{pmid(itemU32), pmid(itemAllFail)}); !errors.Is(err, pcp.ErrNoAgent) {
		t.Errorf("failed request: %v", err)
	}

	h.typ = pcp.TypeDouble
	if d, err := a.Desc(ctx, 5, pmid(itemU32)); err != nil || d.Type != pcp.TypeDouble {
		t.Errorf("describer: %+v %v", d, err)
	}
	if id, err := a.LookupName(ctx, 5, "anything"); err != nil || id != pmid(itemU32) {
		t.Errorf("namer lookup: %v %v", id, err)
	}
	if names, _, err := a.Children(ctx, 5, "x"); err != nil || names[0] != "kid" {
		t.Errorf("namer children: %v %v", names, err)
	}

	want := []pdu.Type{pdu.TypeInstanceReq, pdu.TypeInstanceReq, pdu.TypeLabelReq}
	if !slices.Equal(h.requests[3], want) {
		t.Errorf("client 3's requests: %v, want %v", h.requests[3], want)
	}
	if n := len(h.requests[4]); n != 3 {
		t.Errorf("client 4 made %d fetches, hook saw %d", 3, n)
	}
	h.refuse = pcp.ErrAgain
	if _, err := a.Text(ctx, 6, uint32(pmid(itemU32)), pdu.TextPMID|pdu.TextOneLine); !errors.Is(err, pcp.ErrAgain) {
		t.Errorf("refused text request: %v", err)
	}
	if err := a.Store(ctx, 6, &pcp.Result{}); !errors.Is(err, pcp.ErrAgain) {
		t.Errorf("refused store: %v", err)
	}
}

func TestEventArray(t *testing.T) {
	at := time.Unix(1700000000, 123456789)
	for _, highres := range []bool{false, true} {
		e := NewEventArray()
		if highres {
			e = NewHighResEventArray()
		}
		if err := e.AddParam(pmid(1), pcp.Type32, &pcp.Atom{L: 1}); !errors.Is(err, pcp.ErrConv) {
			t.Errorf("parameter before a record: %v", err)
		}
		if err := e.AddRecord(at, pcp.EventFlagMissed); !errors.Is(err, pcp.ErrConv) {
			t.Errorf("missed flag in AddRecord: %v", err)
		}
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(e.AddRecord(at, pcp.EventFlagStart|pcp.EventFlagID))
		must(e.AddParam(pmid(1), pcp.TypeU32, &pcp.Atom{UL: 4}))
		must(e.AddParam(pmid(2), pcp.TypeString, &pcp.Atom{CP: "six"}))
		must(e.AddParam(pmid(3), pcp.TypeDouble, &pcp.Atom{D: -9}))
		must(e.AddMissedRecord(at.Add(time.Second), 7))
		if err := e.AddParam(pmid(1), pcp.Type32, &pcp.Atom{L: 1}); !errors.Is(err, pcp.ErrConv) {
			t.Errorf("parameter of a missed record: %v", err)
		}
		must(e.AddRecord(at.Add(2*time.Second), pcp.EventFlagPoint))
		must(e.AddParam(pmid(4), pcp.TypeAggregate, &pcp.Atom{VBP: &pcp.ValueBlock{Type: pcp.TypeAggregate, Data: []byte{1, 2, 3}}}))
		if err := e.AddParam(pmid(5), pcp.TypeEvent, &pcp.Atom{}); !errors.Is(err, pcp.ErrType) {
			t.Errorf("event parameter: %v", err)
		}
		vb := e.Value()
		recs, err := pcp.UnpackEvents(vb.Data, highres)
		if err != nil || len(recs) != 3 || e.Records() != 3 {
			t.Fatalf("highres %v: %d records, %v", highres, len(recs), err)
		}
		wantTime := at.Truncate(time.Microsecond)
		if highres {
			wantTime = at
		}
		if !recs[0].Time.Equal(wantTime) {
			t.Errorf("highres %v: time %v, want %v", highres, recs[0].Time, wantTime)
		}
		// flags, then three parameters
		if p := recs[0].Params; len(p) != 4 || p[1].Values[0].LVal != 4 ||
			string(p[2].Values[0].Block.Data) != "six" || p[3].PMID != pmid(3) {
			t.Errorf("highres %v: first record %+v", highres, p)
		}
		if p := recs[1].Params; len(p) != 2 || p[1].Values[0].LVal != 7 {
			t.Errorf("highres %v: missed record %+v", highres, p)
		}
		if p := recs[2].Params; len(p) != 2 || string(p[1].Values[0].Block.Data) != "\x01\x02\x03" {
			t.Errorf("highres %v: aggregate record %+v", highres, p)
		}
		e.Reset()
		if recs, err := pcp.UnpackEvents(e.Value().Data, highres); err != nil || len(recs) != 0 {
			t.Errorf("after Reset: %d records, %v", len(recs), err)
		}
	}
}

// busy says it is not ready until released, as an agent told to pause
// does.
type busy struct {
	hooked
	release chan struct{}
}

func (b *busy) BeginRequest(context.Context, Client, pdu.Type, uint32) error {
	return pcp.ErrPMDANotReady
}

func (b *busy) AwaitReady(ctx context.Context) {
	select {
	case <-b.release:
	case <-ctx.Done():
	}
}

// TestReadier checks the dispatcher's answer to a busy agent: the request
// gets PM_ERR_PMDANOTREADY, and once the agent is ready an unsolicited
// PM_ERR_PMDAREADY follows.
func TestReadier(t *testing.T) {
	b := &busy{hooked: hooked{requests: map[Client][]pdu.Type{}}, release: make(chan struct{})}
	a, err := New(Config{Name: "pmdabusy", Domain: testDomain, Metrics: testMetrics(), InDoms: testInDoms(), Fetcher: b})
	if err != nil {
		t.Fatal(err)
	}
	p := startAgent(t, a)
	reply := p.call(&pdu.DescReq{PMID: pmid(itemU32)}, 1)
	if e, ok := reply.(*pdu.Error); !ok || pcp.Error(e.Code) != pcp.ErrPMDANotReady {
		t.Fatalf("busy agent answered %+v", reply)
	}
	close(b.release)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	raw, err := p.r.ReadPDU(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m, err := pdu.Decode(raw)
	if e, ok := m.(*pdu.Error); err != nil || !ok || pcp.Error(e.Code) != pcp.ErrPMDAReady {
		t.Errorf("after release: %+v %v", m, err)
	}
}
