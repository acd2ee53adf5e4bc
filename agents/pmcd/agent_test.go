package pmcd

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// fakeServer is a pmcd as the agent sees it, with two agents (its own
// and sample) and two clients.
type fakeServer struct {
	tz       string
	ctl      Controls
	agents   []Agent
	byDomain []Agent
	clients  []Client
	mu       sync.Mutex
	whoami   map[pmda.Client]string
	rescans  int
	uid      map[pmda.Client]uint32
}

func (f *fakeServer) Controls() *Controls         { return &f.ctl }
func (f *fakeServer) AgentTimeout() time.Duration { return 5 * time.Second }
func (f *fakeServer) Agents(byDomain bool) []Agent {
	if byDomain {
		return f.byDomain
	}
	return f.agents
}
func (f *fakeServer) NumClients() int   { return len(f.clients) }
func (f *fakeServer) Clients() []Client { return f.clients }
func (f *fakeServer) SetWhoami(c pmda.Client, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if int(c) >= len(f.clients) {
		return pcp.ErrNotConn
	}
	f.whoami[c] = name
	return nil
}
func (f *fakeServer) SetContainer(context.Context, pmda.Client, string) error { return nil }
func (f *fakeServer) ClientUID(c pmda.Client) (uint32, bool) {
	uid, ok := f.uid[c]
	return uid, ok
}
func (f *fakeServer) Features() Features     { return Features{UnixSocket: true} }
func (f *fakeServer) Hostname() string       { return "fakehost" }
func (f *fakeServer) TZ() string             { return f.tz }
func (f *fakeServer) Rescan(context.Context) { f.rescans++ }
func (f *fakeServer) DumpConnections()       {}
func (f *fakeServer) Logf(string, ...any)    {}

type fakeAgent struct {
	name   string
	domain uint32
	typ    uint32
	own    bool
	fenced bool
}

func (a *fakeAgent) Name() string      { return a.name }
func (a *fakeAgent) Domain() uint32    { return a.domain }
func (a *fakeAgent) Type() uint32      { return a.typ }
func (a *fakeAgent) Status() int32     { return 0 }
func (a *fakeAgent) Alive() bool       { return true }
func (a *fakeAgent) Fenced() bool      { return a.fenced }
func (a *fakeAgent) SetFenced(on bool) { a.fenced = on }
func (a *fakeAgent) Own() bool         { return a.own }

type fakeClient struct {
	seq    int32
	whoami string
}

func (c fakeClient) Seq() int32        { return c.seq }
func (c fakeClient) Whoami() string    { return c.whoami }
func (c fakeClient) Start() time.Time  { return time.Unix(0, 0).UTC() }
func (c fakeClient) Container() string { return "" }

func newFake() *fakeServer {
	self := &fakeAgent{name: "pmcd", domain: 2, own: true}
	sample := &fakeAgent{name: "sample", domain: 29, typ: 4}
	f := &fakeServer{
		agents:   []Agent{sample, self},
		byDomain: []Agent{self, sample},
		clients:  []Client{fakeClient{seq: 3, whoami: "pmval"}, fakeClient{seq: 7}},
		whoami:   map[pmda.Client]string{},
		uid:      map[pmda.Client]uint32{0: 0, 1: 1000},
	}
	f.ctl.PDUIn[3].Add(5) // FETCH is type ERROR+3
	f.ctl.Registers[2].Store(42)
	return f
}

// fetch fetches one metric by cluster and item and returns its values
// by instance.
func fetch(t *testing.T, a *pmda.Agent, cluster, item uint32) map[int32]pcp.Atom {
	t.Helper()
	id := pcp.NewPMID(2, cluster, item)
	r, err := a.Fetch(context.Background(), 0, []pcp.PMID{id})
	if err != nil {
		t.Fatal(err)
	}
	d, err := a.Desc(context.Background(), 0, id)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int32]pcp.Atom{}
	for _, set := range r.Sets {
		if set.NumVal < 0 {
			t.Fatalf("%d.%d: %v", cluster, item, pcp.Error(set.NumVal))
		}
		for i := range set.Values {
			v, err := pcp.ExtractValue(set.ValFmt, &set.Values[i], d.Type, d.Type)
			if err != nil {
				t.Fatal(err)
			}
			out[set.Values[i].Inst] = v
		}
	}
	return out
}

// TestAgentReadsServer: the agent reports what the Server interface and
// its Controls hold, and stores change them.
func TestAgentReadsServer(t *testing.T) {
	f := newFake()
	a, err := New(2, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name          string
		cluster, item uint32
		want          map[int32]pcp.Atom
	}{
		{"numagents", 0, 2, map[int32]pcp.Atom{pcp.InstNull: {UL: 2}}},
		{"numclients", 0, 3, map[int32]pcp.Atom{pcp.InstNull: {UL: 2}}},
		{"control.timeout", 0, 4, map[int32]pcp.Atom{pcp.InstNull: {UL: 5}}},
		{"hostname", 0, 21, map[int32]pcp.Atom{pcp.InstNull: {CP: "fakehost"}}},
		{"pdu_in.fetch", 1, 3, map[int32]pcp.Atom{pcp.InstNull: {UL: 5}}},
		{"pdu_in.total", 1, 16, map[int32]pcp.Atom{pcp.InstNull: {UL: 5}}},
		{"agent.type", 4, 0, map[int32]pcp.Atom{2: {UL: 0}, 29: {UL: 4}}},
		{"agent.name", 4, 3, map[int32]pcp.Atom{2: {CP: "pmcd"}, 29: {CP: "sample"}}},
		{"client.whoami", 6, 0, map[int32]pcp.Atom{3: {CP: "pmval"}, 7: {CP: ""}}},
		{"feature.unix_domain_sockets", 8, 5, map[int32]pcp.Atom{pcp.InstNull: {UL: 1}}},
		{"feature.local", 8, 8, map[int32]pcp.Atom{pcp.InstNull: {UL: 0}}},
	}
	for _, c := range checks {
		got := fetch(t, a, c.cluster, c.item)
		if len(got) != len(c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
			continue
		}
		for inst, w := range c.want {
			if g := got[inst]; g.UL != w.UL || g.CP != w.CP {
				t.Errorf("%s[%d]: %+v, want %+v", c.name, inst, g, w)
			}
		}
	}
	if got := fetch(t, a, 0, 8)[2]; got.L != 42 {
		t.Errorf("register 2: %d", got.L)
	}

	store := func(c pmda.Client, cluster, item uint32, inst int32, v int32) error {
		return a.Store(context.Background(), c, &pcp.Result{Sets: []pcp.ValueSet{{
			PMID: pcp.NewPMID(2, cluster, item), NumVal: 1, ValFmt: pcp.ValInSitu,
			Values: []pcp.Value{{Inst: inst, LVal: v}}}}})
	}
	if err := store(0, 0, 4, pcp.InstNull, 9); err != nil || !f.ctl.TimeoutSet.Load() || f.ctl.Timeout.Load() != int64(9*time.Second) {
		t.Errorf("timeout store: %v %v", err, time.Duration(f.ctl.Timeout.Load()))
	}
	if err := store(0, 0, 9, pcp.InstNull, 1); err != nil || f.ctl.Trace.Load() != TraceConn {
		t.Errorf("traceconn store: %v %d", err, f.ctl.Trace.Load())
	}
	if err := store(0, 0, 15, pcp.InstNull, 1); err != nil || f.rescans != 1 {
		t.Errorf("sighup store: %v, %d rescans", err, f.rescans)
	}
	// Fencing: root only, and never pmcd's own agent.
	if err := store(1, 4, 2, pcp.InstNull, 1); !errors.Is(err, pcp.ErrPermission) {
		t.Errorf("fence by uid 1000: %v", err)
	}
	if err := store(0, 4, 2, pcp.InstNull, 1); err != nil {
		t.Errorf("fence by root: %v", err)
	}
	if self, sample := f.byDomain[0].Fenced(), f.byDomain[1].Fenced(); self || !sample {
		t.Errorf("fenced: pmcd %v sample %v", self, sample)
	}
	if err := store(0, 4, 2, 250, 1); !errors.Is(err, pcp.ErrInst) {
		t.Errorf("fence of no such agent: %v", err)
	}
}
