package pmcd

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// pmcd runs on one P while at most one client keeps it busy, and on up
// to Server.MaxProcs while more do. With one busy client a second P
// costs CPU and gains nothing (in process, 1 client: 9.1-9.8 µs of CPU a
// fetch on two Ps against 6.8-7.8 on one; the rate no better). With many, one P is one thread for
// the kernel to schedule: every time it is preempted, by the client it
// has just woken or by other work on the machine, all the clients wait,
// which is where the 99th percentile's milliseconds came from (under 32
// clients, pmcd waited for a CPU 2-4 times as long as it ran). On two Ps
// the other thread carries on meanwhile, a thread's turn on the CPU serves
// about three times as many requests (0.10-0.13 turns a fetch against
// 0.33-0.36) and the clients' own CPU a fetch drops by a fifth, because
// answers reach them in batches.
//
// Busy means at least procsBusyReqs requests in one procsWindow. The
// count is a per-client atomic that only the client's goroutine adds to;
// the window's timer runs only while requests come, so an idle pmcd (or
// one whose clients fetch once a second) has no timer and never leaves
// one P.

const (
	// procsWindow is how often the busy clients are counted while
	// requests come.
	procsWindow = 100 * time.Millisecond
	// procsBusyReqs is how many requests in a window make a client
	// busy: 200 a second, far above any logger or monitoring tool.
	procsBusyReqs = 20
	// procsCalm is how many windows in a row with too few busy clients
	// take pmcd back to one P, so that a burst that pauses for a moment
	// does not pay a stop of the world to change the Ps each time.
	procsCalm = 3
)

// procsWant is the number of Ps for busy clients busy at once, with
// limit the most: one, unless more clients are busy than one P serves
// without queueing them (more than one).
func procsWant(busy, limit int) int {
	if limit <= 1 || busy <= 1 {
		return 1
	}
	return min(busy, limit)
}

// procScaler changes runtime.GOMAXPROCS with the number of busy clients
// (see above). Its zero value is idle.
type procScaler struct {
	// armed says the window's timer is running; requests arm it.
	armed atomic.Bool

	mu      sync.Mutex
	timer   *time.Timer
	cur     int // the Ps set last (0: not changed yet, which is one)
	calm    int // windows in a row that wanted fewer Ps than cur
	stopped bool
	// window, when not zero, replaces procsWindow, and setProcs, when
	// set, runtime.GOMAXPROCS: for tests.
	window   time.Duration
	setProcs func(int) int
}

func (p *procScaler) every() time.Duration {
	if p.window != 0 {
		return p.window
	}
	return procsWindow
}

// requestCame counts one request of client c, arming the window's timer
// if it is not running. It is counted when read, so that a client which
// has its answer has been counted.
func (s *Server) requestCame(c *client) {
	c.reqs.Add(1)
	if s.MaxProcs > 1 && !s.procs.armed.Load() {
		s.procs.arm(s.procsTick)
	}
}

// arm starts the window's timer, calling tick at its end.
func (p *procScaler) arm(tick func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped || p.armed.Load() {
		return
	}
	p.armed.Store(true)
	if p.timer == nil {
		p.timer = time.AfterFunc(p.every(), tick)
	} else {
		p.timer.Reset(p.every())
	}
}

// procsTick ends a window: counts the busy clients, sets the Ps, and
// runs the timer again while any request came.
func (s *Server) procsTick() {
	busy, any := s.countBusy()
	s.procs.decide(busy, any, s.MaxProcs)
}

// countBusy counts the clients with at least procsBusyReqs requests since
// the last count, and says whether any client made a request.
func (s *Server) countBusy() (busy int, any bool) {
	s.clientsMu.Lock()
	defer s.clientsMu.Unlock()
	for c := range s.clients {
		n := c.reqs.Load()
		d := n - c.reqsSeen
		c.reqsSeen = n
		if d > 0 {
			any = true
		}
		if d >= procsBusyReqs {
			busy++
		}
	}
	return busy, any
}

// decide sets the Ps for busy clients out of limit, any saying whether a
// request came in the window, and re-arms the timer while one did or
// while more than one P is in use.
func (p *procScaler) decide(busy int, any bool, limit int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	cur := max(p.cur, 1)
	want := procsWant(busy, limit)
	switch {
	case want > cur:
		p.calm = 0
		p.set(want)
	case want < cur:
		p.calm++
		if p.calm >= procsCalm || !any {
			p.calm = 0
			p.set(want)
		}
	default:
		p.calm = 0
	}
	if (any || max(p.cur, 1) > 1) && p.timer != nil {
		p.timer.Reset(p.every())
		return
	}
	// Idle at one P: the next request arms the timer again.
	p.armed.Store(false)
}

// set changes the Ps to n.
func (p *procScaler) set(n int) {
	if max(p.cur, 1) == n {
		return
	}
	p.cur = n
	if p.setProcs != nil {
		p.setProcs(n)
		return
	}
	runtime.GOMAXPROCS(n)
}

// stop ends the scaling, going back to one P if more were set: the
// Server's Close.
func (p *procScaler) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
	if p.timer != nil {
		p.timer.Stop()
	}
	p.set(1)
}
