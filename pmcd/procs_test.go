package pmcd

import (
	"context"
	"log"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pdu"
)

func TestProcsWant(t *testing.T) {
	for _, c := range []struct{ busy, limit, want int }{
		{0, 2, 1},
		{1, 2, 1},
		{procsClientsPerP, 2, 1},
		{2*procsClientsPerP - 1, 2, 1},
		{2 * procsClientsPerP, 2, 2},
		{32, 2, 2},
		{3 * procsClientsPerP, 8, 3},
		{32, 8, 8},
		{32, 1, 1},
		{32, 0, 1},
	} {
		if got := procsWant(c.busy, c.limit); got != c.want {
			t.Errorf("procsWant(%d, %d) = %d, want %d", c.busy, c.limit, got, c.want)
		}
	}
}

func TestProcsLoad(t *testing.T) {
	for _, c := range []struct {
		reqs   uint64
		active int
		want   int
	}{
		{0, 0, 0},
		{19, 1, 0},
		{1000, 1, 1},                 // one client alone, however fast
		{3 * 10, 3, 1},               // three clients at 100 a second
		{64 * 15, 64, 48},            // 64 at 150 a second
		{32 * procsBusyReqs, 32, 32}, // 32 busy clients
		{2 * procsBusyReqs, 2, 2},
	} {
		if got := procsLoad(c.reqs, c.active); got != c.want {
			t.Errorf("procsLoad(%d, %d) = %d, want %d", c.reqs, c.active, got, c.want)
		}
	}
}

// fakeProcs stands for runtime.GOMAXPROCS in a procScaler: it holds the
// value, and keeps what the scaler set.
type fakeProcs struct {
	mu  sync.Mutex
	cur int
	set []int
}

func (f *fakeProcs) gomaxprocs(n int) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	prev := f.cur
	if n > 0 {
		f.cur = n
		f.set = append(f.set, n)
	}
	return prev
}

// elsewhere sets the value as another part of the program would.
func (f *fakeProcs) elsewhere(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cur = n
}

func (f *fakeProcs) got() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.set)
}

func (f *fakeProcs) now() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cur
}

// TestProcScalerDecide feeds windows to a procScaler: more Ps at once when
// the load wants more, fewer only after procsCalm windows that want fewer
// whether requests came or not, never below the GOMAXPROCS found at the
// raise, the timer left unarmed once idle at rest, and nothing changed
// once GOMAXPROCS was changed elsewhere.
func TestProcScalerDecide(t *testing.T) {
	type window struct {
		load  int
		came  bool
		limit int
		procs []int // everything set so far
		armed bool  // or, once scaling stopped, never to be armed again
	}
	for _, c := range []struct {
		name      string
		base      int
		elsewhere map[int]int // before window i, GOMAXPROCS set to
		rooms     []procsRoom // what window i's counts said; unmeasured beyond
		windows   []window
		logged    int
	}{
		{name: "one busy client stays on one P", base: 1, windows: []window{
			{1, true, 2, nil, true}, {1, true, 2, nil, true}, {0, false, 2, nil, false}}},
		{name: "many busy clients, then a pause of procsCalm windows", base: 1, windows: []window{
			{32, true, 2, []int{2}, true}, {32, true, 2, []int{2}, true},
			{0, false, 2, []int{2}, true}, {0, false, 2, []int{2}, true},
			{0, false, 2, []int{2, 1}, false}}},
		{name: "a few busy clients stay on one P", base: 1, windows: []window{
			{procsClientsPerP, true, 8, nil, true}, {2*procsClientsPerP - 1, true, 8, nil, true}, {0, false, 8, nil, false}}},
		{name: "busy in alternate windows does not flip", base: 1, windows: []window{
			{8, true, 2, []int{2}, true}, {0, false, 2, []int{2}, true},
			{8, true, 2, []int{2}, true}, {0, false, 2, []int{2}, true},
			{8, true, 2, []int{2}, true}, {0, false, 2, []int{2}, true}}},
		{name: "fewer busy clients for procsCalm windows", base: 1, windows: []window{
			{32, true, 4, []int{4}, true}, {8, true, 4, []int{4}, true}, {8, true, 4, []int{4}, true},
			{8, true, 4, []int{4, 2}, true}, {4, true, 4, []int{4, 2}, true}, {12, true, 4, []int{4, 2, 3}, true},
			{4, true, 4, []int{4, 2, 3}, true}, {4, true, 4, []int{4, 2, 3}, true}, {4, true, 4, []int{4, 2, 3, 1}, true},
			{0, false, 4, []int{4, 2, 3, 1}, false}}},
		{name: "no limit", base: 1, windows: []window{{32, true, 1, nil, true}, {0, false, 1, nil, false}}},
		{name: "a program's 8 above MaxProcs 4 is left alone", base: 8, windows: []window{
			{32, true, 4, nil, true}, {0, false, 4, nil, false}}},
		{name: "back to the program's 2, not 1", base: 2, windows: []window{
			{32, true, 4, []int{4}, true}, {1, true, 4, []int{4}, true}, {1, true, 4, []int{4}, true},
			{1, true, 4, []int{4, 2}, true}, {0, false, 4, []int{4, 2}, false}}},
		{name: "a limit that shrinks", base: 1, windows: []window{
			{32, true, 8, []int{8}, true}, {32, true, 2, []int{8}, true}, {32, true, 2, []int{8}, true},
			{32, true, 2, []int{8, 2}, true}}},
		{name: "threads that neither wait nor saturate stay on one P", base: 1,
			rooms:   []procsRoom{roomUnknown, roomNotWanted, roomNotWanted},
			windows: []window{{32, true, 2, nil, true}, {32, true, 2, nil, true}, {32, true, 2, nil, true}}},
		{name: "starved threads take the Ps, after a first sample", base: 1,
			rooms:   []procsRoom{roomUnknown, roomWanted, roomNotWanted},
			windows: []window{{32, true, 2, nil, true}, {32, true, 2, []int{2}, true}, {32, true, 2, []int{2}, true}}},
		{name: "a probe of the base every procsProbe windows", base: 1,
			rooms: append(append([]procsRoom{roomWanted}, slices.Repeat([]procsRoom{roomNotWanted}, procsProbe)...),
				roomWanted, roomNotWanted),
			windows: append(append([]window{{32, true, 2, []int{2}, true}},
				append(slices.Repeat([]window{{32, true, 2, []int{2}, true}}, procsProbe-1),
					window{32, true, 2, []int{2, 1}, true})...),
				// Still starved on the base: raised again; then the
				// load alone keeps the Ps until the next probe.
				window{32, true, 2, []int{2, 1, 2}, true}, window{32, true, 2, []int{2, 1, 2}, true})},
		{name: "a probe that finds the base enough stays on it", base: 1,
			rooms: append(append([]procsRoom{roomWanted}, slices.Repeat([]procsRoom{roomWanted}, procsProbe)...),
				roomNotWanted, roomNotWanted),
			windows: append(append([]window{{32, true, 2, []int{2}, true}},
				append(slices.Repeat([]window{{32, true, 2, []int{2}, true}}, procsProbe-1),
					window{32, true, 2, []int{2, 1}, true})...),
				window{32, true, 2, []int{2, 1}, true}, window{32, true, 2, []int{2, 1}, true})},
		{name: "no probe without counts", base: 1,
			windows: slices.Repeat([]window{{32, true, 2, []int{2}, true}}, 2*procsProbe)},
		{name: "changed elsewhere: scaling stops", base: 1, elsewhere: map[int]int{1: 3}, logged: 1, windows: []window{
			{32, true, 4, []int{4}, true}, {0, false, 4, []int{4}, true}, {32, true, 4, []int{4}, true},
			{0, false, 4, []int{4}, true}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			fake := &fakeProcs{cur: c.base}
			var logged strings.Builder
			srv := &Server{Log: log.New(&logged, "", 0)}
			p := &procScaler{window: time.Hour, gomaxprocs: fake.gomaxprocs}
			p.join(srv)
			p.arm()
			for i, w := range c.windows {
				if n, ok := c.elsewhere[i]; ok {
					fake.elsewhere(n)
				}
				room := roomUnmeasured
				if i < len(c.rooms) {
					room = c.rooms[i]
				}
				p.decide(w.load, 0, w.came, w.limit, room, []*Server{srv})
				if got := fake.got(); !slices.Equal(got, w.procs) {
					t.Fatalf("window %d (load %d): Ps set %v, want %v", i, w.load, got, w.procs)
				}
				if p.armed.Load() != w.armed {
					t.Fatalf("window %d: armed %v, want %v", i, p.armed.Load(), w.armed)
				}
				p.arm()
			}
			want := fake.got()
			p.leave(srv)
			if got := fake.got(); len(want) > 0 && want[len(want)-1] != c.base && len(c.elsewhere) == 0 {
				want = append(want, c.base)
				if !slices.Equal(got, want) {
					t.Fatalf("after leave, Ps set %v, want %v", got, want)
				}
			} else if !slices.Equal(got, want) {
				t.Fatalf("after leave, Ps set %v, want %v (nothing more)", got, want)
			}
			if n := strings.Count(logged.String(), "\n"); n != c.logged {
				t.Fatalf("%d lines logged, want %d:\n%s", n, c.logged, logged.String())
			}
		})
	}
}

// procsConn is a client of a Server served for a procs test.
type procsConn struct {
	r *pdu.Reader
	w *pdu.Writer
}

// ask makes n requests.
func (c procsConn) ask(t *testing.T, n int) {
	for range n {
		roundTrip(t, c.r, c.w, &pdu.PMNSNames{Names: []string{"kernel.all.load"}})
	}
}

// serveProcs serves a Server with maxProcs and scaler p, with n clients;
// the returned function ends Serve and closes the Server.
func serveProcs(t *testing.T, p *procScaler, maxProcs, n int) (*Server, []procsConn, func()) {
	return serveProcsSched(t, p, maxProcs, n, nil)
}

// serveProcsSched is serveProcs with sched as the Server's ProcsSched.
func serveProcsSched(t *testing.T, p *procScaler, maxProcs, n int, sched func() (time.Duration, time.Duration, bool)) (*Server, []procsConn, func()) {
	srv := &Server{PMNS: testTree(t), MaxProcs: maxProcs, scaler: p, ProcsSched: sched}
	_, conns, end := serveClients(t, srv, n)
	return srv, conns, end
}

// serveClients serves srv and connects n clients to it, returned as
// connections and as PDU readers and writers; the returned function
// (also run at the test's cleanup) ends Serve, waits for it and closes
// srv.
func serveClients(t *testing.T, srv *Server, n int) ([]net.Conn, []procsConn, func()) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, l) }()
	host := "localhost:" + strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	var raw []net.Conn
	var conns []procsConn
	for range n {
		c, r, w := dial(t, host)
		raw = append(raw, c)
		conns = append(conns, procsConn{r, w})
	}
	var once sync.Once
	end := func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Serve: %v", err)
				}
			case <-time.After(time.Minute):
				t.Error("Serve did not return a minute after its context ended")
			}
			if err := srv.Close(); err != nil {
				t.Error(err)
			}
		})
	}
	t.Cleanup(end)
	return raw, conns, end
}

// busy has every client make procsBusyReqs requests at once.
func busy(t *testing.T, conns []procsConn) {
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Go(func() { c.ask(t, procsBusyReqs) })
	}
	wg.Wait()
}

// TestProcsFollowBusyClients serves clients with MaxProcs 2 and ends the
// windows by hand (the timer's window is an hour): two Ps' worth of
// clients that each make procsBusyReqs requests raise the Ps to 2; one
// busy client alone takes them back to 1 after procsCalm windows; Close
// leaves one P.
func TestProcsFollowBusyClients(t *testing.T) {
	t.Parallel()
	fake := &fakeProcs{cur: 1}
	p := &procScaler{window: time.Hour, gomaxprocs: fake.gomaxprocs}
	_, conns, end := serveProcs(t, p, 2, 2*procsClientsPerP)
	busy(t, conns)
	p.tick()
	if got := fake.got(); !slices.Equal(got, []int{2}) {
		t.Fatalf("after %d busy clients, Ps set %v, want [2]", len(conns), got)
	}
	for i := range procsCalm {
		conns[0].ask(t, procsBusyReqs)
		p.tick()
		want := []int{2}
		if i == procsCalm-1 {
			want = []int{2, 1}
		}
		if got := fake.got(); !slices.Equal(got, want) {
			t.Fatalf("after %d windows of one busy client, Ps set %v, want %v", i+1, got, want)
		}
	}
	busy(t, conns)
	p.tick()
	end()
	if got := fake.got(); !slices.Equal(got, []int{2, 1, 2, 1}) {
		t.Fatalf("after Close, Ps set %v, want [2 1 2 1]", got)
	}
}

// TestProcsSharedByServers runs two Servers with MaxProcs 2 on one
// scaler, as two in one process share GOMAXPROCS: A's busy clients
// raise it, B's idle ones do not take it back, the first Close leaves it
// to the Server still serving, and the last restores the Ps found.
func TestProcsSharedByServers(t *testing.T) {
	t.Parallel()
	fake := &fakeProcs{cur: 1}
	var limits int
	p := &procScaler{window: time.Hour, gomaxprocs: fake.gomaxprocs}
	a, aConns, endA := serveProcs(t, p, 2, 2*procsClientsPerP)
	a.ProcsLimit = func() int { limits++; return 8 }
	_, bConns, endB := serveProcs(t, p, 2, procsClientsPerP)
	bConns[0].ask(t, 1)
	p.tick()
	if limits != 0 {
		t.Fatalf("ProcsLimit read %d times in a window of one client's request, want 0", limits)
	}
	for i := range 2 * procsCalm {
		busy(t, aConns)
		p.tick()
		if got := fake.got(); !slices.Equal(got, []int{2}) {
			t.Fatalf("window %d of A's busy clients with B idle: Ps set %v, want [2]", i, got)
		}
	}
	if limits != 2*procsCalm {
		t.Fatalf("ProcsLimit read %d times in %d busy windows, want once each", limits, 2*procsCalm)
	}
	// Half of A's clients and all of B's busy: as many as A's alone,
	// counted together, keep the Ps for longer than procsCalm windows.
	both := append(slices.Clone(aConns[:procsClientsPerP]), bConns...)
	for i := range 2 * procsCalm {
		busy(t, both)
		p.tick()
		if got := fake.got(); !slices.Equal(got, []int{2}) {
			t.Fatalf("window %d of busy clients on both Servers: Ps set %v, want [2]", i, got)
		}
	}
	endB()
	if got := fake.got(); !slices.Equal(got, []int{2}) {
		t.Fatalf("after B's Close, Ps set %v, want [2]", got)
	}
	busy(t, aConns)
	p.tick()
	endA()
	if got := fake.got(); !slices.Equal(got, []int{2, 1}) {
		t.Fatalf("after A's Close, Ps set %v, want [2 1]", got)
	}
}
