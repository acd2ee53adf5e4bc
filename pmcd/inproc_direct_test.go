package pmcd

import (
	"context"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopcp/gopcp/agents/trivial"
	"github.com/gopcp/gopcp/internal/testing/goroutines"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
	"github.com/gopcp/gopcp/pmns"
)

// gatedServer serves agentsPMNS with the trivial agent (domain 250) and an
// in-process agent of metric 251:0:0 whose fetches, while hold says so,
// say they entered on entered and wait for gate; it counts its fetches in
// calls. The in-process agents' watchdogs run on the test's clock,
// returned with the server's address.
type gatedServer struct {
	host    string
	srv     *Server
	calls   atomic.Int32
	hold    atomic.Bool
	gate    chan struct{}
	entered chan struct{}
	mu      sync.Mutex
	watches map[uint32]*fakeWatch // by domain
	procs   map[uint32]*inProc
}

// gatedEntries numbers the entry points the tests register, one each.
var gatedEntries atomic.Int32

func startGated(t *testing.T, timeout time.Duration, withPMCD bool) *gatedServer {
	t.Helper()
	g := &gatedServer{gate: make(chan struct{}), entered: make(chan struct{}, 64),
		watches: map[uint32]*fakeWatch{}, procs: map[uint32]*inProc{}}
	entry := "gated" + string(rune('a'+gatedEntries.Add(1))) + "_init"
	RegisterDSO(entry, func(domain uint32) (*pmda.Agent, error) {
		return pmda.New(pmda.Config{
			Name:   "gated",
			Domain: domain,
			Metrics: []pmda.Metric{{Desc: pcp.Desc{PMID: pcp.NewPMID(domain, 0, 0), Type: pcp.Type32,
				InDom: pcp.InDomNull, Sem: pcp.SemInstant}}},
			Fetcher: pmda.FetchFunc(func(context.Context, *pmda.Metric, int32) (pcp.Atom, error) {
				g.calls.Add(1)
				if g.hold.Load() {
					g.entered <- struct{}{}
					<-g.gate
				}
				return pcp.Atom{L: 7}, nil
			}),
		})
	})
	tree, err := pmns.Parse(strings.NewReader(agentsPMNS), pmns.Options{})
	if err != nil {
		t.Fatal(err)
	}
	conf := "trivial\t250\tdso\ttrivial_init\t/nonexistent/pmda_trivial.so\n" +
		"broken 251 dso " + entry + " /nonexistent/pmda_broken.so\n"
	if withPMCD {
		conf = "pmcd 2 dso " + pmcdEntry + " /nonexistent/pmda_pmcd.so\n" + conf
	}
	c, err := ParseConf(strings.NewReader(conf), "test")
	if err != nil {
		t.Fatal(err)
	}
	g.srv = &Server{PMNS: tree, Conf: c, AgentTimeout: timeout}
	g.srv.onInProc = func(p *inProc) {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.watches[p.a.Domain()] = newFakeWatch(p)
		g.procs[p.a.Domain()] = p
	}
	g.host = serveOn(t, g.srv)
	return g
}

// watch is the fake watchdog of the agent of domain d.
func (g *gatedServer) watch(d uint32) (*fakeWatch, *inProc) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.watches[d], g.procs[d]
}

// gatedClient is one connection to a gatedServer.
type gatedClient struct {
	conn net.Conn
	r    *pdu.Reader
	w    *pdu.Writer
}

func (g *gatedServer) dial(t *testing.T) *gatedClient {
	conn, r, w := dial(t, g.host)
	return &gatedClient{conn, r, w}
}

// send writes a fetch of ids without waiting for the answer.
func (c *gatedClient) send(t *testing.T, ids ...pcp.PMID) {
	t.Helper()
	if err := c.w.WriteMessage(context.Background(), &pdu.Fetch{Context: 0, PMIDs: ids}, 1); err != nil {
		t.Fatal(err)
	}
}

// result reads the answer to a fetch, passing over state-change notices.
func (c *gatedClient) result(t *testing.T) *pdu.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		m := readMessage(t, ctx, c.r)
		if e, ok := m.(*pdu.Error); ok && e.Code > 0 {
			continue
		}
		r, ok := m.(*pdu.Result)
		if !ok {
			t.Fatalf("answer %T %+v, want a RESULT", m, m)
		}
		return r
	}
}

// wantSets checks that r holds one value set per PMID with NumVal want.
func wantSets(t *testing.T, who string, r *pdu.Result, want ...int32) {
	t.Helper()
	if len(r.Sets) != len(want) {
		t.Fatalf("%s: %d value sets, want %d", who, len(r.Sets), len(want))
	}
	for i, s := range r.Sets {
		if s.NumVal != want[i] {
			t.Fatalf("%s: set %d (%v) numval %d, want %d", who, i, s.PMID, s.NumVal, want[i])
		}
	}
}

// waiters waits until n callers wait for p's lock.
func waiters(t *testing.T, p *inProc, n int32) {
	t.Helper()
	waitFor(t, "callers waiting for the agent", func() (bool, string) {
		got := p.lock.waiters.Load()
		return got == n, strconv.Itoa(int(got))
	})
}

// holdWithWaiters dials n clients; after one fetch of the gated metric
// (so that the watchdog's clock starts from a call that ended), the
// first client's next fetch is held in the agent and the n-1 others wait
// for the agent's lock behind it.
func (g *gatedServer) holdWithWaiters(t *testing.T, n int) ([]*gatedClient, *fakeWatch, *inProc) {
	t.Helper()
	gated := pcp.NewPMID(251, 0, 0)
	clients := make([]*gatedClient, n)
	for i := range clients {
		clients[i] = g.dial(t)
	}
	clients[0].send(t, gated)
	wantSets(t, "first fetch", clients[0].result(t), 1)
	w, p := g.watch(251)
	g.hold.Store(true)
	clients[0].send(t, gated)
	<-g.entered
	for _, c := range clients[1:] {
		c.send(t, gated)
	}
	waiters(t, p, int32(n-1))
	return clients, w, p
}

// TestInProcDirectHang: 32 clients fetch from one in-process agent, the
// first fetch hangs in the agent and the 31 others wait for the agent's
// lock. When the watchdog's clock reaches the timeout, all 32 are
// answered at once, the hung call still hung: the first with
// PM_ERR_TIMEOUT, the others with PM_ERR_NOAGENT, as PCP's pmcd answers
// the requests to a dead agent; the agent is not called again, the trivial
// agent goes on answering on every connection, the hung call's among them
// (its goroutine was taken over by a rescuer), and when the hung call
// returns at last, its goroutine ends without ending that connection.
func TestInProcDirectHang(t *testing.T) {
	t.Parallel()
	const timeout = time.Second
	g := startGated(t, timeout, false)
	gated, triv := pcp.NewPMID(251, 0, 0), trivial.PMID
	clients, w, p := g.holdWithWaiters(t, 32)
	w.advance(timeout - 1)
	if st := p.state.Load() & stateMask; st != callRunning {
		t.Fatalf("call's state %d before its timeout, want running", st)
	}
	w.advance(timeout)
	wantSets(t, "hung client", clients[0].result(t), int32(pcp.ErrTimeout))
	for i, c := range clients[1:] {
		wantSets(t, "waiting client "+string(rune('0'+i%10)), c.result(t), int32(pcp.ErrNoAgent))
	}
	if n := g.calls.Load(); n != 2 {
		t.Fatalf("agent called %d times, want 2 (none after the hang)", n)
	}
	for i, c := range clients {
		c.send(t, gated, triv)
		wantSets(t, "client after the hang", c.result(t), int32(pcp.ErrNoAgent), 1)
		if i == 0 {
			c.send(t, triv)
			wantSets(t, "rescued client", c.result(t), 1)
		}
	}
	if n := g.calls.Load(); n != 2 {
		t.Fatalf("agent called %d times, want 2 (none after the hang)", n)
	}
	// The hung call returns: its goroutine ends, and the connection it
	// served is still served.
	close(g.gate)
	if left := goroutines.Left("github.com/gopcp/gopcp/pmcd.(*inProc).ended"); len(left) > 0 {
		t.Fatalf("goroutine left in a direct call after it returned:\n%s", strings.Join(left, "\n\n"))
	}
	for range 3 {
		clients[0].send(t, triv)
		wantSets(t, "rescued client after the late return", clients[0].result(t), 1)
	}
}

// TestInProcDirectSlow: a fetch that takes all but the last moment of its
// timeout is answered, and the fetches waiting for it then run in turn:
// a slow agent is not a hung one.
func TestInProcDirectSlow(t *testing.T) {
	t.Parallel()
	const timeout = time.Second
	g := startGated(t, timeout, false)
	gated := pcp.NewPMID(251, 0, 0)
	clients, w, _ := g.holdWithWaiters(t, 4)
	w.advance(timeout - 1)
	g.hold.Store(false)
	g.gate <- struct{}{}
	for _, c := range clients {
		wantSets(t, "client of a slow agent", c.result(t), 1)
	}
	if n := g.calls.Load(); n != 5 {
		t.Fatalf("agent called %d times, want 5", n)
	}
	// Each call has had its own timeout from its start.
	w.advance(3 * timeout)
	clients[1].send(t, gated)
	wantSets(t, "fetch after", clients[1].result(t), 1)
}

// TestInProcDirectTimeoutChanged: pmcd.control.timeout stored between two
// fetches is the timeout of the second: lowered from an hour to a
// second, a hung fetch is given up on at its second, not at the hour the
// watchdog was set for by the fetch before.
func TestInProcDirectTimeoutChanged(t *testing.T) {
	t.Parallel()
	g := startGated(t, time.Hour, true)
	gated := pcp.NewPMID(251, 0, 0)
	c := g.dial(t)
	c.send(t, gated)
	wantSets(t, "first fetch", c.result(t), 1)
	w, p := g.watch(251)
	store := &pdu.Result{Result: pcp.Result{Sets: []pcp.ValueSet{{
		PMID: pcp.NewPMID(2, 0, 4), NumVal: 1, ValFmt: pcp.ValInSitu, // pmcd.control.timeout
		Values: []pcp.Value{{Inst: pcp.InstNull, LVal: 1}},
	}}}}
	if e, ok := roundTrip(t, c.r, c.w, store).(*pdu.Error); !ok || e.Code != 0 {
		t.Fatalf("store of pmcd.control.timeout: %+v", e)
	}
	g.hold.Store(true)
	c.send(t, gated)
	<-g.entered
	w.advance(time.Second - 1)
	if st := p.state.Load() & stateMask; st != callRunning {
		t.Fatalf("call's state %d before its timeout, want running", st)
	}
	w.advance(time.Second)
	wantSets(t, "hung fetch", c.result(t), int32(pcp.ErrTimeout))
	close(g.gate)
}

// TestInProcDirectShutdown: pmcd stops serving while a client's fetch is
// in an agent that does not return (its timeout an hour away): Serve
// returns without waiting for it, the client's connection ends, and the
// call's late return ends its goroutine.
func TestInProcDirectShutdown(t *testing.T) {
	t.Parallel()
	tree, err := pmns.Parse(strings.NewReader(agentsPMNS), pmns.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := &gatedServer{gate: make(chan struct{}), entered: make(chan struct{}, 1)}
	entry := "gated" + string(rune('a'+gatedEntries.Add(1))) + "_init"
	RegisterDSO(entry, func(domain uint32) (*pmda.Agent, error) {
		return pmda.New(pmda.Config{
			Name:   "gated",
			Domain: domain,
			Metrics: []pmda.Metric{{Desc: pcp.Desc{PMID: pcp.NewPMID(domain, 0, 0), Type: pcp.Type32,
				InDom: pcp.InDomNull, Sem: pcp.SemInstant}}},
			Fetcher: pmda.FetchFunc(func(context.Context, *pmda.Metric, int32) (pcp.Atom, error) {
				g.entered <- struct{}{}
				<-g.gate
				return pcp.Atom{L: 7}, nil
			}),
		})
	})
	c, err := ParseConf(strings.NewReader("broken 251 dso "+entry+" /nonexistent/pmda_broken.so\n"), "test")
	if err != nil {
		t.Fatal(err)
	}
	srv := &Server{PMNS: tree, Conf: c, AgentTimeout: time.Hour}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv.Start(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, l) }()
	cl := &gatedClient{}
	cl.conn, cl.r, cl.w = dial(t, l.Addr().String())
	cl.send(t, pcp.NewPMID(251, 0, 0))
	<-g.entered
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if _, err := cl.r.ReadPDU(context.Background()); err == nil {
		t.Fatal("the connection of the fetch in progress goes on after Serve returned")
	}
	close(g.gate)
	srv.Close()
	if left := goroutines.Left("github.com/gopcp/gopcp/pmcd.(*inProc).ended"); len(left) > 0 {
		t.Fatalf("goroutine left in a direct call after it returned:\n%s", strings.Join(left, "\n\n"))
	}
}

// TestInProcCloseWaitsForRunningCall: the agent is closed (pmcd stopping
// it, a SIGHUP's reconfiguration, a restart) while one client's fetch
// runs in its Handle and another's waits for the agent's lock. The
// waiting fetch gives up without taking the running call's lock, so
// close still waits for that call and, as it does not end within
// stopGrace, leaves the agent abandoned rather than closing it under
// the live call.
func TestInProcCloseWaitsForRunningCall(t *testing.T) {
	t.Parallel()
	g := startGated(t, time.Hour, false)
	_, _, p := g.holdWithWaiters(t, 2)
	p.close()
	if !p.abandoned {
		t.Error("agent closed (not abandoned) while a fetch was still running in its Handle")
	}
	close(g.gate)
}
