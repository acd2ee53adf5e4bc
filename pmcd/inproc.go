package pmcd

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// inProc is a Go agent running inside pmcd, a "dso" line's agent: each
// request is handed to the agent's Handle as pmcd decoded it, and the
// answer is put in the PDU form a daemon agent would have sent.
type inProc struct {
	a *pmda.Agent
	// own marks pmcd's own agent, which answers from pmcd's memory and is
	// called directly, without a watchdog to time it out.
	own bool
	// entry is the address of the Go function that built the agent,
	// shown in the agent table where PCP shows the DSO's entry point.
	entry uintptr
	// into, when not nil, is where call copies a fetch's answer: storage
	// of the client being served, set under the agent slot's lock
	// (agent.mu) for one call.
	into *pdu.Result
	// borrow, set like into for a call to pmcd's own agent, has call
	// hand back the agent's own answer uncopied, for the caller to read
	// before it lets the agent slot's lock go (see fetchEncoded).
	borrow bool
	// fetch is the FETCH the agent reads, a copy of the client's, under
	// the agent's lock (see call and fetchDirect).
	fetch pdu.Fetch
	// timeout is how long call waits for the agent, set under the agent
	// slot's lock before each call; fetchDirect has its own.
	timeout time.Duration
	// abandoned is set by close when the agent's Close had not returned
	// within stopGrace.
	abandoned bool

	// The agent takes one call at a time, as a DSO in PCP's pmcd does:
	// lock is held for a call, and a caller can give up waiting for
	// it: gone is closed once pmcd has given up on the agent (a call
	// timed out, its caller went, or the agent was stopped), and
	// whoever waits for the lock then fails at once instead of waiting
	// behind a call that may never end.
	setup  sync.Once
	lock   agentLock
	gone   chan struct{}
	goneMu sync.Once
	// gaveUp is set just before gone is closed: agents ask their
	// context's Err once per value set, and a load is cheaper than a
	// receive from gone.
	gaveUp atomic.Bool
	// owner is the agent slot p serves, which a rescue marks dead; prof
	// is the client profile the agent last got; rescuer, set for a
	// direct call, is who carries on with the caller's work if the call
	// is given up on (see fetchDirect). All three under the agent's lock.
	owner   *agent
	prof    profileKey
	rescuer rescuer

	// Calls that go through call (all but fetches) are handed to the
	// agent's goroutine, started at the first such call, which takes
	// requests from calls and answers on answers, so that the caller
	// can stop waiting for a call that runs too long.
	calls   chan inProcCall
	answers chan callResult
	// cctx is the context the agent is handed; its done is gone.
	cctx callCtx
	// The watchdog times the call in progress (see watch): state is the
	// call's number and state (callState), started when it began
	// (nanoseconds since base), limit its timeout in nanoseconds. Under
	// watchMu, armed says the watchdog is set to fire, at due
	// (nanoseconds since base). A timer reset and stopped by every call
	// cost more than the agent's fetch (runtime timer locks), so a call
	// resets it only when it is unset or due after the call's own end:
	// the timeout changes from call to call (pmcd.control.timeout), and a
	// shorter one must not wait for a longer one's round.
	state    atomic.Uint64
	seq      uint64 // the number of the last call, under the agent's lock
	started  atomic.Int64
	limit    atomic.Int64
	watchMu  sync.Mutex
	armed    bool
	due      int64
	base     time.Time
	watchdog watchTimer
	// clock, when set, replaces time.Since(base) (for tests, with a
	// watchdog of their own).
	clock func() time.Duration
}

// watchTimer is what the watchdog needs of its timer: a *time.Timer, or a
// test's.
type watchTimer interface {
	Reset(time.Duration) bool
	Stop() bool
}

// since is the time since base. The monotonic clock alone is read:
// time.Now reads the wall clock too, which cost a tenth of a call.
func (p *inProc) since() time.Duration {
	if p.clock != nil {
		return p.clock()
	}
	return time.Since(p.base)
}

// The states of an in-process call, in the low byte of inProc.state
// (callState); the bytes above number the call, so that the watchdog,
// which reads a call's start apart from its state, cannot time out a
// call that began after the one it found running. The agent's goroutine,
// the watchdog and the caller each try to end a running call, and only
// the one that does answers it.
const (
	callIdle uint64 = iota
	callRunning
	callAnswered
	callTimedOut
	callAbandoned
)

// stateMask is the call's state in a state word; callDirect, beside it,
// marks a direct call (fetchDirect), whose rescuer the state's winner
// reads: no other call can begin until that call has ended.
const (
	stateMask  = 0x0f
	callDirect = 0x10
)

// callState is the state word of call number seq in state st (with
// callDirect for a direct call).
func callState(seq, st uint64) uint64 { return seq<<8 | st }

// running says whether state word v is of a call running.
func running(v uint64) bool { return v&stateMask == callRunning }

// inProcCall is one request for the agent's goroutine.
type inProcCall struct {
	ctx  context.Context
	from pmda.Client
	req  pdu.Message
	seq  uint64 // the call's number (see callState)
}

func (p *inProc) flags() pdu.Flags { return p.a.Flags() }

// close ends the agent (pmda.Agent.Close): its listeners, goroutines and
// mappings go with it, so that an agent started again in its place finds
// its port free. No call comes after close: the agent has been taken out
// of service under its lock first, and close gives up on it (gone), so
// that callers still waiting for it fail; a call under way is waited for,
// within stopGrace, unless it was given up on already (it may never end).
// The agent's goroutine ends once the call it may still be in returns.
//
// Closing is bounded as a daemon's end is (stopGrace): an agent whose
// Close does not return by then is left to finish on its own (a goroutine
// cannot be killed as a process can), so that a hung agent cannot hold
// pmcd's shutdown or a SIGHUP's reconfiguration; abandoned says so.
func (p *inProc) close() {
	st := p.state.Load() & stateMask
	hung := st == callTimedOut || st == callAbandoned
	p.giveUp()
	t := time.NewTimer(stopGrace)
	defer t.Stop()
	if !hung && p.lock.lock(nil, t.C) == 0 {
		p.abandoned = true
		return
	}
	if p.calls != nil {
		// No call comes after gone: the agent's goroutine ends once
		// the one it may be in returns.
		close(p.calls)
	}
	p.watchdog.Stop()
	done := make(chan struct{})
	go func() {
		_ = p.a.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-t.C:
		p.abandoned = true
	}
}

// init makes what calls share, once.
func (p *inProc) init() {
	p.setup.Do(func() {
		p.lock, p.gone = newAgentLock(), make(chan struct{})
		p.cctx = callCtx{p: p, done: p.gone}
		p.base = time.Now()
		if p.watchdog == nil {
			p.watchdog = time.AfterFunc(time.Hour, p.watch)
			p.watchdog.Stop()
		}
	})
}

// isGone says whether pmcd has given up on the agent.
func (p *inProc) isGone() bool { return p.gaveUp.Load() }

// acquire takes the agent's lock and returns the hold's number for
// release, or fails, returning 0, once pmcd has given up on the agent,
// whether before or while it waits.
func (p *inProc) acquire() uint64 {
	h := p.lock.lock(p.gone, nil)
	// The lock may have been free as gone closed, and taken. Only a
	// caller that took it gives it back: it is otherwise the holder's,
	// and close waits for it for a call still in the agent.
	if p.isGone() {
		p.release(h)
		return 0
	}
	return h
}

// release ends hold h of the agent's lock. A hold that is no longer in
// force (0, or given back already) is left alone: whoever has the lock
// now keeps it.
func (p *inProc) release(h uint64) { p.lock.unlock(h) }

// callResult carries an in-process call's answer back.
type callResult struct {
	reply pdu.Message
	err   error
}

// serve is the agent's goroutine. An answer is handed back only if the
// call is still running: once the watchdog or the caller has given up on
// it, the caller has had its answer and the agent is dead.
func (p *inProc) serve() {
	for c := range p.calls {
		reply, err := p.a.Handle(c.ctx, c.from, c.req)
		if p.state.CompareAndSwap(callState(c.seq, callRunning), callState(c.seq, callAnswered)) {
			p.answers <- callResult{reply, err}
		}
	}
}

// errGone is the error of a call that found pmcd had given up on the
// agent (another call to it timed out, or it was stopped).
func (p *inProc) errGone() error {
	return fmt.Errorf("%w: agent %s: %w", errAgentLost, p.a.Name(), pcp.ErrTimeout)
}

// call answers req for client from. The agent runs on a goroutine of its
// own so that pmcd can give up on it after p.timeout (or when ctx is
// done), as it gives up on a daemon that does not answer: the agent is
// then marked dead and its goroutine left to finish on its own. A panic
// in the agent's code comes back from Handle as pcp.ErrIPC, which marks
// the agent dead too; the daemon carries on. Fetches take the quicker
// way of fetchDirect.
func (p *inProc) call(ctx context.Context, from int32, req pdu.Message) (pdu.Message, error) {
	c := pmda.Client(from)
	if p.own {
		return p.kept(p.a.Handle(ctx, c, req))
	}
	p.init()
	h := p.acquire()
	if h == 0 {
		return nil, p.errGone()
	}
	defer p.release(h)
	if f, ok := req.(*pdu.Fetch); ok {
		// A goroutine left behind by a timeout may still be reading
		// the request when the client decodes its next one into the
		// same storage. It reads this copy instead, which nothing
		// writes again: a timed-out agent is dead, and a restart
		// makes a new inProc.
		p.fetch.Context = f.Context
		p.fetch.PMIDs = append(p.fetch.PMIDs[:0], f.PMIDs...)
		req = &p.fetch
	}
	if p.calls == nil {
		p.calls, p.answers = make(chan inProcCall), make(chan callResult, 1)
		go p.serve()
	}
	seq := p.begin(p.timeout, nil)
	// Unless hung, the agent's goroutine has answered every call before
	// and waits for this one.
	p.calls <- inProcCall{ctx: &p.cctx, from: c, req: req, seq: seq}
	var r callResult
	if done := ctx.Done(); done == nil {
		r = <-p.answers
	} else {
		select {
		case r = <-p.answers:
		case <-done:
			if p.state.CompareAndSwap(callState(seq, callRunning), callState(seq, callAbandoned)) {
				p.giveUp()
				return nil, fmt.Errorf("%w: agent %s: %w", errAgentLost, p.a.Name(), ctx.Err())
			}
			// The agent or the watchdog ended the call first.
			r = <-p.answers
		}
	}
	if p.state.Load() == callState(seq, callTimedOut) {
		return nil, p.errGone()
	}
	p.state.Store(callState(seq, callIdle))
	return p.kept(r.reply, r.err)
}

// begin starts the watchdog on a call of the given timeout (the default
// if none), made by a caller holding the agent's lock, and returns its number. With
// rescuer nil the call is call's: the watchdog answers it on answers; else
// it hands rescuer the caller's work (see fetchDirect).
func (p *inProc) begin(timeout time.Duration, r rescuer) uint64 {
	if timeout <= 0 {
		timeout = defaultAgentTimeout
	}
	// The watchdog reads started, limit and rescuer once it sees the
	// call running, so they are set first.
	p.rescuer = r
	p.seq++
	seq := p.seq
	now := p.since()
	p.started.Store(int64(now))
	p.limit.Store(int64(timeout))
	st := callRunning
	if r != nil {
		st |= callDirect
	}
	p.state.Store(callState(seq, st))
	end := int64(now + timeout)
	p.watchMu.Lock()
	if !p.armed || end < p.due {
		p.armed, p.due = true, end
		p.watchdog.Reset(timeout)
	}
	p.watchMu.Unlock()
	return seq
}

// watch is the watchdog's round, on a goroutine of the timer's: it
// answers a call that has run for its timeout with a time-out, or sets
// itself for when the running call's timeout ends; with no call running
// it is left unset until a call sets it. Calls that follow each other
// within a timeout thus cost it one round per timeout, and an idle agent
// none. It holds watchMu throughout, so that a call that begins meanwhile
// either finds it armed for the call (or earlier), or arms it itself.
//
// A call timed out gives the agent up (gone), so that every caller
// waiting for it fails at once. The caller of a call (call) is answered
// with the time-out; the work of the caller of a direct call, which is in
// the agent's code itself, is carried on by its rescuer on a goroutine of
// its own.
func (p *inProc) watch() {
	p.watchMu.Lock()
	defer p.watchMu.Unlock()
	for {
		v := p.state.Load()
		if !running(v) {
			p.armed = false
			return
		}
		// started is this call's or a later one's: a later start
		// only sets the watchdog later, and the swap below fails for
		// any call but this one.
		now := p.since()
		end := time.Duration(p.started.Load() + p.limit.Load())
		if left := end - now; left > 0 {
			p.armed, p.due = true, int64(end)
			p.watchdog.Reset(left)
			return
		}
		if p.state.CompareAndSwap(v, v&^stateMask|callTimedOut) {
			p.armed = false
			p.giveUp()
			if r := p.rescuer; r != nil {
				// Before the call's goroutine can see it was given up
				// on: it waits for watchMu (see ended).
				r.takeOver()
				go r.rescue(p, pcp.ErrTimeout)
			} else {
				p.answers <- callResult{}
			}
			return
		}
		// That call ended meanwhile; another may run.
	}
}

// abandon gives up on the direct call in progress, if any, as the
// watchdog gives up on one that timed out, with err: its caller's work
// goes to its rescuer, which ends as the connection has.
func (p *inProc) abandon(err error) {
	p.watchMu.Lock()
	defer p.watchMu.Unlock()
	// A call handed to the agent's goroutine is left alone: its caller
	// gives up on it when the same context ends.
	v := p.state.Load()
	if !running(v) || v&callDirect == 0 || !p.state.CompareAndSwap(v, v&^stateMask|callAbandoned) {
		return
	}
	// Read once the call is known to be the one that set it.
	r := p.rescuer
	p.giveUp()
	r.takeOver()
	go r.rescue(p, err)
}

// giveUp leaves the call in progress to whoever is in it and tells the
// agent, through its context, that pmcd no longer waits; callers waiting
// for the agent fail. It is done once.
func (p *inProc) giveUp() {
	p.init()
	p.goneMu.Do(func() {
		// Set first: whoever finds gone closed finds gaveUp set.
		p.gaveUp.Store(true)
		close(p.gone)
	})
}

// callCtx is the context an in-process agent's call gets: the call's
// deadline, and done once pmcd has given up on the agent (which is then
// dead, so it serves one agent's life). One is kept per agent, so that a
// call allocates no context and no timer of its own.
type callCtx struct {
	p    *inProc
	done chan struct{}
}

// Deadline is worked out when asked, which few agents do: the call's
// start and timeout are the watchdog's.
func (c *callCtx) Deadline() (time.Time, bool) {
	return c.p.base.Add(time.Duration(c.p.started.Load() + c.p.limit.Load())), true
}

func (c *callCtx) Done() <-chan struct{} { return c.done }
func (c *callCtx) Value(any) any         { return nil }

func (c *callCtx) Err() error {
	if c.p.gaveUp.Load() {
		return context.DeadlineExceeded
	}
	return nil
}

// kept turns a fetch's answer, which is the agent's own storage until its
// next fetch, into a copy pmcd keeps: into the storage of the client
// being served when there is one, else new storage. It runs on the
// caller's side, so an agent's goroutine left behind by a timeout never
// writes into a client's storage.
func (p *inProc) kept(reply pdu.Message, err error) (pdu.Message, error) {
	r, ok := reply.(*pdu.Result)
	if !ok || err != nil {
		return reply, err
	}
	if p.borrow && p.own {
		return r, nil
	}
	if p.into != nil {
		copyResultInto(&p.into.Result, &r.Result)
		return p.into, nil
	}
	return &pdu.Result{Result: copyResult(&r.Result)}, nil
}

// copyResult is a deep copy of r's value sets, value blocks included, in
// three allocations: the sets, all their values, and all their blocks.
func copyResult(r *pcp.Result) pcp.Result {
	nvals, nbytes := 0, 0
	for _, s := range r.Sets {
		nvals += len(s.Values)
		for _, v := range s.Values {
			nbytes += len(v.Block.Data)
		}
	}
	out := pcp.Result{Timestamp: r.Timestamp, Sets: make([]pcp.ValueSet, len(r.Sets))}
	vals := make([]pcp.Value, 0, nvals)
	var blocks []byte
	if nbytes > 0 {
		blocks = make([]byte, 0, nbytes)
	}
	for i, s := range r.Sets {
		first := len(vals)
		vals = append(vals, s.Values...)
		for j := first; j < len(vals); j++ {
			if d := vals[j].Block.Data; d != nil {
				at := len(blocks)
				blocks = append(blocks, d...)
				vals[j].Block.Data = blocks[at:len(blocks):len(blocks)]
			}
		}
		if s.Values != nil {
			s.Values = vals[first:len(vals):len(vals)]
		}
		out.Sets[i] = s
	}
	return out
}

// copyResultInto is copyResult into dst's storage, which it reuses: once
// dst has grown, it allocates nothing.
func copyResultInto(dst, r *pcp.Result) {
	nbytes := 0
	for _, s := range r.Sets {
		for _, v := range s.Values {
			nbytes += len(v.Block.Data)
		}
	}
	blocks := dst.Arena(nbytes)[:0]
	dst.Timestamp = r.Timestamp
	dst.Sets = slices.Grow(dst.Sets[:0], len(r.Sets))[:len(r.Sets)]
	for i, s := range r.Sets {
		var vals []pcp.Value
		if s.Values != nil {
			vals = append(dst.Sets[i].Values[:0], s.Values...)
		}
		for j := range vals {
			if d := vals[j].Block.Data; d != nil {
				at := len(blocks)
				blocks = append(blocks, d...)
				vals[j].Block.Data = blocks[at:len(blocks):len(blocks)]
			}
		}
		s.Values = vals
		dst.Sets[i] = s
	}
}
