package pmcd

import (
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// pmcd runs on one P while few clients keep it busy, and on up to
// Server.MaxProcs while more do (procsClientsPerP each). With one busy
// client a second P costs CPU and gains nothing (in process, 1 client: 9.1-9.8 µs of CPU
// a fetch on two Ps against 6.8-7.8 on one; the rate no better). With
// many, one P is one thread for the kernel to schedule: every time it
// is preempted, by the client it has just woken or by other work on the
// machine, all the clients wait, which is where the 99th percentile's
// milliseconds came from (under 32 clients, pmcd waited for a CPU 2-4
// times as long as it ran). On two Ps the other thread carries on
// meanwhile, a thread's turn on the CPU serves about three times as
// many requests (0.10-0.13 turns a fetch against 0.33-0.36) and the
// clients' own CPU a fetch drops by a fifth, because answers reach them
// in batches.
//
// GOMAXPROCS belongs to the process, so one procScaler serves every
// Server of it (processProcs), adding up their clients. The load of a
// procsWindow is its requests counted in busy clients (procsBusyReqs
// each), but no more than the clients that made them: 64 clients at
// 150 requests a second each load pmcd as much as 48 at 200, while one
// client alone stays one however fast it asks. The counts are atomics
// that only each client's goroutine adds to; the window's timer runs
// only while requests come or more Ps than the base are set, so an idle
// pmcd (or one whose clients fetch once a second) has no timer.
//
// The second P pays only where pmcd is short of CPU. On a quiet machine
// whose CPUs pmcd shares with its own busy clients (2 CPUs, the bench's
// 32 clients, in process), two Ps bought 8% of rate for a p99 five times
// PCP's: every answer wakes a client, whose thread preempts the pmcd
// thread that woke it (92% of pmcd's preemptions under 32 clients), and
// what that thread held, the in-process agent's lock first of all (see
// agentLock), waits for its next turn on a CPU. On a loaded machine (load 8-40) two Ps gave 1.6-2.7 times PCP's rate with a
// p99 a quarter to a half of its. So the Ps are raised only while the
// threads' counts (Server.ProcsSched) say one P is short: it waited for
// a CPU as long as it ran, or ran nearly all the window (roomOf); and
// every procsProbe windows the scaler goes back to the base for a window
// to see whether it still is, waiting twice as long after each probe
// that finds it is (up to procsProbeMax). While raised, the counts are
// read only at the end of the window before a probe. Without the counts the load alone
// decides, as before. Raised on the counts, the Ps must also serve more
// requests than the base did (gained), or the scaler goes back and holds
// the base for a while (holdAfter).
//
// The scaler only ever adds Ps to what it found (the base: one for
// cmd/pmcd, whatever a program that embeds a Server chose), and gives
// them back; if GOMAXPROCS is not what it last set, someone else sets
// it, and the scaler stops for good, saying so once.

const (
	// procsWindow is how often the load is counted while requests
	// come.
	procsWindow = 100 * time.Millisecond
	// procsBusyReqs is how many requests in a window make a client
	// busy: 200 a second, far above any logger or monitoring tool.
	procsBusyReqs = 20
	// procsCalm is how many windows in a row wanting fewer Ps, whether
	// requests came or not, give Ps back, so that clients busy in turn
	// or a burst that pauses for a moment do not pay a stop of the
	// world to change the Ps each window.
	procsCalm = 3
)

// procsProbe is how many windows the Ps stay raised before a window back
// on the base, which tells whether the base's threads still want more
// (see procsRoom): 3 s, doubled by each probe that finds they do
// (nextProbe).
const procsProbe = 30

// procsProbeMax caps the windows between probes as probes that confirm
// the Ps are wanted double them (nextProbe): 60 s. A probe costs a
// window on the base, and two stops of the world to change GOMAXPROCS.
const procsProbeMax = 600

// nextProbe is the windows before the next probe after one made every
// every windows: twice as many if it found more Ps wanted (up to
// procsProbeMax), procsProbe if not.
func nextProbe(every int, wanted bool) int {
	if !wanted {
		return procsProbe
	}
	return min(2*every, procsProbeMax)
}

// probeAfter is how many windows raised come before a probe.
func (p *procScaler) probeAfter() int {
	if p.probeEvery == 0 {
		return procsProbe
	}
	return p.probeEvery
}

// procsRoom is what a busy window's counts of pmcd's threads say of more
// Ps (roomOf).
type procsRoom int

const (
	// roomUnmeasured: no counts (no Server has ProcsSched, or the
	// kernel keeps none): the load alone decides, as it did before the
	// counts were read.
	roomUnmeasured procsRoom = iota
	// roomUnknown: the first busy window's counts, with nothing to
	// compare them with yet.
	roomUnknown
	// roomNotWanted: the threads ran less than procsSaturated and
	// waited for a CPU less than they ran.
	roomNotWanted
	// roomWanted: the threads waited for a CPU at least as long as they
	// ran, or ran procsSaturated of each P.
	roomWanted
)

// procsSaturated is the share of a window each P's thread ran that counts
// it as saturated.
const procsSaturated = 0.8

// procsIdleMin is the CPUs' worth of idle time over a window below which
// the CPUs count as full (roomOf).
const procsIdleMin = 0.5

// roomOf says whether threads on procs Ps that ran for run and waited
// for a CPU for wait over elapsed want more Ps, the machine's CPUs having
// been idle for idle (negative: unknown) meanwhile. Waiting as long as they
// ran means other work has the CPUs (at least two runnable threads to a
// CPU), and a second thread keeps the clients served; running nearly
// all the time means one P is all pmcd has. Otherwise a second P
// competes for the CPUs with pmcd's own clients, and every time the
// kernel preempts one of its threads, the request on it waits out the
// preempting thread's slice.
//
// Neither says whether a second thread would find a CPU to run on. With
// less than procsIdleMin of a CPU idle it would not: it could only take
// CPU from other work, and on a quiet machine that work is pmcd's own
// clients (2 CPUs, 32 bench clients in process: the CPUs were full on
// one P, and two Ps gave 1.35 times PCP's rate with a p99 three times
// its, one P for pmcd and the clients alike 1.43 and 1.37), while each
// preemption of one of pmcd's two threads stalls the requests on it.
func roomOf(run, wait, elapsed time.Duration, procs int, idle time.Duration) procsRoom {
	if elapsed <= 0 || procs < 1 {
		return roomUnknown
	}
	if idle >= 0 && full(idle, elapsed) {
		return roomNotWanted
	}
	if wait >= run && wait > elapsed/20 {
		return roomWanted
	}
	if float64(run) >= procsSaturated*float64(elapsed)*float64(procs) {
		return roomWanted
	}
	return roomNotWanted
}

// sample reads the threads' counts of the first of servers with
// ProcsSched (servers in the order they joined), and says what they make
// of the window since the last sample.
//
// The machine's idle time is read first: over a window in which the
// CPUs were full, a second P has no CPU to run on whatever the threads
// did (roomOf), and reading their counts (a file for each of pmcd's
// threads, on the P the clients wait for) would only delay the clients.
// So once the threads' counts are known to be kept, such a window is
// not wanted without them, and the next window's counts have nothing to
// compare with (roomUnknown): a machine that frees CPUs raises the Ps a
// window later.
func (p *procScaler) sample(servers []*Server) procsRoom {
	var read func() (time.Duration, time.Duration, bool)
	var readIdle func() (time.Duration, bool)
	for _, s := range servers {
		if s.ProcsSched != nil {
			read, readIdle = s.ProcsSched, s.ProcsIdle
			break
		}
	}
	if read == nil {
		return roomUnmeasured
	}
	now := time.Now
	if p.now != nil {
		now = p.now
	}
	idle, idleOK := time.Duration(-1), false
	if readIdle != nil {
		idle, idleOK = readIdle()
	}
	at := now()
	p.mu.Lock()
	prevIdle, prevIdleAt, hadIdle := p.idleAt, p.idleSampledAt, p.idleSampled
	p.idleAt, p.idleSampledAt, p.idleSampled = idle, at, idleOK
	idleWindow := time.Duration(-1)
	if w, ok := IdleWindow(prevIdle, idle); idleOK && hadIdle && ok {
		idleWindow = w
	}
	if p.counted && idleWindow >= 0 && full(idleWindow, at.Sub(prevIdleAt)) {
		p.sampled = false
		p.mu.Unlock()
		return roomNotWanted
	}
	p.mu.Unlock()
	run, wait, ok := read()
	if !ok {
		return roomUnmeasured
	}
	at = now()
	procs := p.procs(0)
	p.mu.Lock()
	defer p.mu.Unlock()
	prevRun, prevWait, prevAt, had := p.runAt, p.waitAt, p.sampledAt, p.sampled
	p.runAt, p.waitAt, p.sampledAt, p.sampled = run, wait, at, true
	if run == 0 || had && run == prevRun {
		// Threads that served a busy window ran for some of it: a
		// kernel that counts nothing (sched_info off, "0 0 0" for
		// every thread) says nothing, and the load alone decides.
		p.counted = false
		return roomUnmeasured
	}
	p.counted = true
	if !had || run < prevRun || wait < prevWait {
		// The first busy window, or a thread ended and took its
		// counts with it.
		return roomUnknown
	}
	return roomOf(run-prevRun, wait-prevWait, at.Sub(prevAt), procs, idleWindow)
}

// full says whether the CPUs, idle for idle over elapsed, were full:
// less than procsIdleMin of a CPU idle.
func full(idle, elapsed time.Duration) bool {
	return float64(idle) < procsIdleMin*float64(elapsed)
}

// procsClientsPerP is how many busy clients each P takes. With fewer than
// two Ps' worth, a second P cost more than it gave: in process, 2 and 4
// clients on two Ps spent 8.0 and 6.7 µs of CPU a fetch against 6.6 and
// 6.2 on one, with p99 1.7 and 1.5 times PCP's against 0.95 and 0.76
// (three runs each beside PCP's pmcd); 8 and 32 clients gained rate and
// p99 on two (docs/bench.md).
const procsClientsPerP = 4

// procsWant is the number of Ps for a load of busy clients, with limit
// the most: one per procsClientsPerP busy clients, at least one.
func procsWant(busy, limit int) int {
	return max(1, min(busy/procsClientsPerP, limit))
}

// procsLoad is a window's load in busy clients: its requests in units
// of procsBusyReqs, at most the clients that made them.
func procsLoad(reqs uint64, active int) int {
	return int(min(reqs/procsBusyReqs, uint64(active)))
}

// processProcs is the process's procScaler, shared by every Server with
// MaxProcs above 1.
var processProcs procScaler

// procScaler changes GOMAXPROCS with the load of its Servers' clients
// (see above). Its zero value is idle, with no Server.
type procScaler struct {
	// armed says the window's timer is running; requests arm it.
	armed atomic.Bool

	mu sync.Mutex
	// servers in the order they joined: sample reads the first's
	// threads' counts, the same Server every window.
	servers []*Server
	timer   *time.Timer
	base    int // GOMAXPROCS found at the raise from rest
	last    int // what was set last; 0 at rest (the base)
	calm    int // windows in a row that wanted fewer Ps than last
	raised  int // windows since the Ps were raised
	// probeEvery is how many windows raised come before a probe of the
	// base (0: procsProbe); probing says the window at rest is one.
	probeEvery int
	probing    bool
	// A raise on the threads' counts is kept only if the Ps serve more
	// (gained): gainBase is the requests of the window before, gainSum
	// those of the windows raised so far, gainLeft the windows raised
	// still to count. hold is the busy windows left on the base after
	// one that did not, holdEvery the next hold's length (0:
	// procsProbe).
	gainBase, gainSum uint64
	gainLeft          int
	hold, holdEvery   int
	off               bool
	// The threads' counts at the end of the last busy window (see
	// sample); sampled says they are there.
	sampled       bool
	runAt, waitAt time.Duration
	sampledAt     time.Time
	// counted says the last counts read were kept by the kernel (it
	// counted some time).
	counted bool
	// The machine's idle time at the end of the last busy window, when
	// it was read, and when it was read.
	idleSampled   bool
	idleAt        time.Duration
	idleSampledAt time.Time
	// window, when not zero, replaces procsWindow, gomaxprocs, when
	// set, runtime.GOMAXPROCS, and now time.Now: for tests.
	window     time.Duration
	gomaxprocs func(int) int
	now        func() time.Time
}

// procs is the scaler s belongs to: the process's, or a test's.
func (s *Server) procs() *procScaler {
	if s.scaler != nil {
		return s.scaler
	}
	return &processProcs
}

func (p *procScaler) every() time.Duration {
	if p.window != 0 {
		return p.window
	}
	return procsWindow
}

func (p *procScaler) procs(n int) int {
	if p.gomaxprocs != nil {
		return p.gomaxprocs(n)
	}
	return runtime.GOMAXPROCS(n)
}

// join adds s's clients to the scaler's load: Serve, with MaxProcs set.
func (p *procScaler) join(s *Server) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !slices.Contains(p.servers, s) {
		p.servers = append(p.servers, s)
	}
}

// leave takes s out of the scaler: Close. The last Server to leave
// stops the timer and gives back the Ps added to the base.
func (p *procScaler) leave(s *Server) {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := slices.Index(p.servers, s)
	if i < 0 {
		return
	}
	p.servers = slices.Delete(p.servers, i, i+1)
	if len(p.servers) > 0 {
		return
	}
	if p.timer != nil {
		p.timer.Stop()
	}
	p.armed.Store(false)
	p.calm, p.probeEvery, p.probing = 0, 0, false
	p.gainLeft, p.hold, p.holdEvery = 0, 0, 0
	if p.last != 0 && !p.off && p.procs(0) == p.last {
		p.procs(p.base)
	}
	p.last = 0
}

// requestCame counts one request of client c, arming the window's timer
// if it is not running. It is counted when read, so that a client which
// has its answer has been counted.
func (s *Server) requestCame(c *client) {
	c.reqs.Add(1)
	if s.MaxProcs > 1 {
		if p := s.procs(); !p.armed.Load() {
			p.arm()
		}
	}
}

// arm starts the window's timer, calling tick at its end.
func (p *procScaler) arm() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.off || p.armed.Load() || len(p.servers) == 0 {
		return
	}
	p.armed.Store(true)
	if p.timer == nil {
		p.timer = time.AfterFunc(p.every(), p.tick)
	} else {
		p.timer.Reset(p.every())
	}
}

// tick ends a window: counts the load of every Server's clients and
// sets the Ps for it.
func (p *procScaler) tick() {
	p.mu.Lock()
	servers := slices.Clone(p.servers)
	// While raised, the counts matter only to the probe: read them at
	// the end of the window before it, to compare the probe's with.
	read := p.last == 0 || p.raised+1 >= p.probeAfter()
	raised := p.last != 0
	p.mu.Unlock()
	var reqs uint64
	active := 0
	for _, s := range servers {
		r, a := s.countRequests()
		reqs += r
		active += a
	}
	load := procsLoad(reqs, active)
	limit := 0
	room := roomUnmeasured
	if procsWant(load, math.MaxInt) > 1 {
		// Read only while the load wants more than one P: the
		// threads' counts and a limit cost a few file reads, on the
		// P the clients wait for.
		if read {
			room = p.sample(servers)
		} else {
			// Not looked at before the window that ends in a
			// probe.
			room = roomUnknown
		}
		// The limit only matters to Ps raised or to be raised.
		if raised || room == roomUnmeasured || room == roomWanted {
			for _, s := range servers {
				limit = max(limit, s.procsLimit())
			}
		}
	} else {
		p.mu.Lock()
		p.sampled, p.idleSampled = false, false
		p.mu.Unlock()
	}
	p.decide(load, reqs, active > 0, limit, room, servers)
}

// countRequests counts the requests since the last count and the clients
// that made any.
func (s *Server) countRequests() (reqs uint64, active int) {
	s.clientsMu.Lock()
	defer s.clientsMu.Unlock()
	for c := range s.clients {
		n := c.reqs.Load()
		d := n - c.reqsSeen
		c.reqsSeen = n
		if d > 0 {
			active++
			reqs += d
		}
	}
	return reqs, active
}

// procsLimit is the most Ps s may take now: MaxProcs, or less if
// ProcsLimit says so.
func (s *Server) procsLimit() int {
	if s.ProcsLimit != nil {
		if n := s.ProcsLimit(); n > 0 {
			return min(n, s.MaxProcs)
		}
	}
	return s.MaxProcs
}

// decide sets the Ps for a window's load out of limit, reqs its
// requests, came saying whether a request came in it and room what the
// threads' counts said of it, and re-arms the timer while one did or
// while Ps are added to the base. who are the Servers counted, for the
// log.
func (p *procScaler) decide(load int, reqs uint64, came bool, limit int, room procsRoom, who []*Server) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.off {
		return
	}
	if len(p.servers) == 0 {
		p.armed.Store(false)
		return
	}
	want := procsWant(load, limit)
	if p.last == 0 {
		// At rest: the base is whatever GOMAXPROCS is now. More
		// Ps only where the base's threads were seen to want them,
		// or where nothing can be seen.
		probed := p.probing
		p.probing = false
		raise := false
		if p.hold > 0 {
			// The last raise served no more: the base stays a while.
			p.hold--
		} else if want > 1 && (room == roomUnmeasured || room == roomWanted) {
			if cur := p.procs(0); want > cur {
				p.base, p.last, p.calm, p.raised = cur, want, 0, 0
				p.procs(want)
				raise = true
				// Raised on the counts, the Ps must also serve more
				// (see gained).
				p.gainBase, p.gainSum, p.gainLeft = reqs, 0, 0
				if room == roomWanted {
					p.gainLeft = procsGainWindows + 1
				}
			}
		}
		if probed {
			// A probe that confirms the Ps are wanted waits twice as
			// long for the next; one that drops back starts over.
			p.probeEvery = nextProbe(p.probeAfter(), raise)
		}
	} else if cur := p.procs(0); cur != p.last {
		p.stopScaling(cur, who)
		return
	} else {
		want = max(want, p.base)
		p.raised++
		if p.gainLeft > 0 {
			// The first window raised is left out: it began on the
			// base, and with the change of Ps' stop of the world.
			p.gainLeft--
			if p.gainLeft < procsGainWindows {
				p.gainSum += reqs
			}
			if p.gainLeft == 0 && gained(p.gainBase, p.gainSum) {
				p.holdEvery = 0
			} else if p.gainLeft == 0 {
				p.hold = p.holdAfter()
				p.holdEvery = min(2*p.hold, procsProbeMax)
			}
		}
		switch {
		case p.hold > 0:
			// Back to the base, held there (at rest, above).
			p.calm = 0
			p.procs(p.base)
			p.last = 0
		case room != roomUnmeasured && p.raised >= p.probeAfter() && want >= p.last:
			// Back to the base for a window, to see whether its
			// threads still want more (at rest, above).
			p.calm = 0
			p.procs(p.base)
			p.last = 0
			p.probing = true
		case want > p.last:
			p.calm = 0
			p.last = want
			p.procs(want)
		case want < p.last:
			p.calm++
			if p.calm >= procsCalm {
				p.calm = 0
				p.procs(want)
				p.last = want
				if want == p.base {
					p.last = 0
					// Raised again later, the load has changed:
					// probe soon.
					p.probeEvery = 0
				}
			}
		default:
			p.calm = 0
		}
	}
	if (came || p.last != 0) && p.timer != nil {
		p.timer.Reset(p.every())
		return
	}
	// Idle at rest: the next request arms the timer again.
	p.armed.Store(false)
}

// procsGainWindows is how many windows raised on the threads' counts are
// compared with the window before (gained), after the first.
const procsGainWindows = 3

// procsGainPercent is what the raised windows must serve, in percent of
// the window before on the base, for the Ps to stay raised.
const procsGainPercent = 115

// gained says whether procsGainWindows windows raised that served sum
// requests served procsGainPercent of base, the window before on the
// base, each. Clients that wait for each answer before asking again ask
// faster when answered faster, so more Ps that do not make them ask
// more have only spread the requests over threads the kernel preempts
// in turn: on a quiet 2-CPU machine, pmcd on two Ps beside its 32 bench
// clients served 0.95-1.08 times the requests of one P with a p99 three
// to five times longer, while on a loaded machine two Ps served 1.3-1.5
// times as many (docs/bench.md, session 13). Clients that ask at their
// own pace (loggers, monitors) make as many requests either way, and the
// base serves them.
func gained(base, sum uint64) bool {
	return sum*100 >= base*procsGainWindows*procsGainPercent
}

// holdAfter is how many busy windows the base is kept after a raise that
// served no more (gained): procsProbe, doubled by each such raise in a
// row up to procsProbeMax.
func (p *procScaler) holdAfter() int {
	if p.holdEvery == 0 {
		return procsProbe
	}
	return p.holdEvery
}

// stopScaling leaves GOMAXPROCS to whoever set it to cur, for good, and
// says so in the log of the first Server counted that has one.
func (p *procScaler) stopScaling(cur int, who []*Server) {
	p.off = true
	// Left armed with no timer, so that requests no longer take the
	// lock to arm it.
	p.armed.Store(true)
	for _, s := range who {
		if s.Log != nil {
			s.logf("Warning: GOMAXPROCS is %d, not the %d pmcd set: it was changed elsewhere, and pmcd no longer changes it", cur, p.last)
			break
		}
	}
}
