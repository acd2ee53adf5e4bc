package pmcd

import (
	"context"
	"net"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pdu"
)

func TestProcsWant(t *testing.T) {
	for _, c := range []struct{ busy, limit, want int }{
		{0, 2, 1},
		{1, 2, 1},
		{2, 2, 2},
		{32, 2, 2},
		{3, 8, 3},
		{32, 8, 8},
		{32, 1, 1},
		{32, 0, 1},
	} {
		if got := procsWant(c.busy, c.limit); got != c.want {
			t.Errorf("procsWant(%d, %d) = %d, want %d", c.busy, c.limit, got, c.want)
		}
	}
}

// procsRecorder stands for runtime.GOMAXPROCS in a procScaler, keeping
// what was set.
type procsRecorder struct {
	mu  sync.Mutex
	set []int
}

func (r *procsRecorder) setProcs(n int) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.set = append(r.set, n)
	return 0
}

func (r *procsRecorder) got() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.set)
}

// TestProcScalerDecide feeds windows to a procScaler: more Ps at once when
// more clients are busy, fewer only after procsCalm windows that want
// fewer (at once when no request came), and the timer left unarmed once
// idle at one P.
func TestProcScalerDecide(t *testing.T) {
	type window struct {
		busy  int
		any   bool
		procs []int // everything set so far
		armed bool
	}
	for _, c := range []struct {
		name    string
		limit   int
		windows []window
	}{
		{"one busy client stays on one P", 2, []window{
			{1, true, nil, true}, {1, true, nil, true}, {0, false, nil, false}}},
		{"many busy clients, then a pause", 2, []window{
			{32, true, []int{2}, true}, {32, true, []int{2}, true},
			{0, false, []int{2, 1}, false}}},
		{"fewer busy clients for procsCalm windows", 4, []window{
			{32, true, []int{4}, true}, {2, true, []int{4}, true}, {2, true, []int{4}, true},
			{2, true, []int{4, 2}, true}, {1, true, []int{4, 2}, true}, {3, true, []int{4, 2, 3}, true},
			{1, true, []int{4, 2, 3}, true}, {1, true, []int{4, 2, 3}, true}, {1, true, []int{4, 2, 3, 1}, true},
			{0, false, []int{4, 2, 3, 1}, false}}},
		{"no limit", 1, []window{{32, true, nil, true}, {0, false, nil, false}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var rec procsRecorder
			p := &procScaler{window: time.Hour, setProcs: rec.setProcs}
			p.arm(func() {})
			defer p.stop()
			for i, w := range c.windows {
				p.decide(w.busy, w.any, c.limit)
				if got := rec.got(); !slices.Equal(got, w.procs) {
					t.Fatalf("window %d (%d busy): Ps set %v, want %v", i, w.busy, got, w.procs)
				}
				if p.armed.Load() != w.armed {
					t.Fatalf("window %d: armed %v, want %v", i, p.armed.Load(), w.armed)
				}
			}
		})
	}
}

// TestProcsFollowBusyClients serves clients with MaxProcs 2 and counts the
// windows by hand (the timer's window is an hour): three clients that each
// make procsBusyReqs requests raise the Ps to 2; one busy client alone
// takes them back to 1 after procsCalm windows; Close leaves one P.
func TestProcsFollowBusyClients(t *testing.T) {
	t.Parallel()
	var rec procsRecorder
	srv := &Server{PMNS: testTree(t), MaxProcs: 2}
	srv.procs.window, srv.procs.setProcs = time.Hour, rec.setProcs
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, l) }()
	host := "localhost:" + strconv.Itoa(l.Addr().(*net.TCPAddr).Port)

	type conn struct {
		r *pdu.Reader
		w *pdu.Writer
	}
	var conns []conn
	for range 3 {
		_, r, w := dial(t, host)
		conns = append(conns, conn{r, w})
	}
	ask := func(c conn, n int) {
		for range n {
			roundTrip(t, c.r, c.w, &pdu.PMNSNames{Names: []string{"kernel.all.load"}})
		}
	}
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Go(func() { ask(c, procsBusyReqs) })
	}
	wg.Wait()
	srv.procsTick()
	if got := rec.got(); !slices.Equal(got, []int{2}) {
		t.Fatalf("after three busy clients, Ps set %v, want [2]", got)
	}
	for i := range procsCalm {
		ask(conns[0], procsBusyReqs)
		srv.procsTick()
		want := []int{2}
		if i == procsCalm-1 {
			want = []int{2, 1}
		}
		if got := rec.got(); !slices.Equal(got, want) {
			t.Fatalf("after %d windows of one busy client, Ps set %v, want %v", i+1, got, want)
		}
	}
	for _, c := range conns {
		wg.Go(func() { ask(c, procsBusyReqs) })
	}
	wg.Wait()
	srv.procsTick()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if got := rec.got(); !slices.Equal(got, []int{2, 1, 2, 1}) {
		t.Fatalf("after Close, Ps set %v, want [2 1 2 1]", got)
	}
}
