package pmcd

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// backend is one way of talking to an agent: in-process or over a pipe
// or socket. Calls come one at a time, under the agent's lock.
type backend interface {
	// call sends req on behalf of client from and returns the reply, or
	// nil for notifications (PROFILE, ATTR, ERROR). A PCP error answer
	// is a pcp.Error; anything wrapping errAgentLost or pcp.ErrIPC means
	// the agent can no longer be trusted.
	call(ctx context.Context, from int32, req pdu.Message) (pdu.Message, error)
	flags() pdu.Flags
	close()
}

// agent is one pmcd.conf agent line and its connection.
//
// Concurrency: clients call an agent from their own goroutines, and a
// fetch calls several agents at once. mu serialises requests to one
// agent, as its single pipe requires; different agents proceed in
// parallel. Once dead, an agent stays dead.
type agent struct {
	conf AgentConf
	s    *Server

	mu sync.Mutex
	b  backend // nil once dead
	// direct is b when it is an in-process agent other than pmcd's own,
	// else nil, readable without mu: fetches call it directly, under
	// its own lock (fetchDirect).
	direct atomic.Pointer[inProc]
	// queue holds the fetches waiting for a daemon agent and leading
	// says one of their callers holds mu to send them (fetchQueued);
	// both under qmu.
	qmu     sync.Mutex
	queue   []*fetchWaiter
	leading bool
	// batch and batchMsg are fetchQueued's, under mu.
	batch    []*fetchWaiter
	batchMsg fetchBatch
	prof     profileKey
	pf       profiledFetch // fetch's PROFILE and FETCH for a daemon, under mu
	// notReady is set while a daemon agent has said it is busy
	// (PM_ERR_PMDANOTREADY, or "notready" in pmcd.conf): requests get
	// PM_ERR_AGAIN until it sends PM_ERR_PMDAREADY.
	notReady bool
	// reason says why a dead agent stopped, pmcd.agent.status's code.
	reason int32
	// state is what publish last worked out from b, notReady and reason,
	// readable without mu.
	state atomic.Int32
	// fenced is set by a store into pmcd.agent.fenced: the agent gets no
	// requests, which fail with PM_ERR_PMDAFENCED.
	fenced atomic.Bool
	// wantsAttrs caches whether the running agent asked for client
	// attributes, so that agents which did not are skipped without the
	// lock (pmcd's own agent forwards a container while holding its own).
	wantsAttrs atomic.Bool

	// lastRestart is when AutoRestart last started the agent again, and
	// restartQueued says a restart is waiting; both under mu.
	lastRestart   time.Time
	restartQueued bool
	// closed, under mu, is closed once the in-process agent kill ended
	// has been closed: one started again in its place waits for it, so
	// that the port it listened on is free before its successor binds it.
	closed chan struct{}
}

// Why an agent stopped, in the low byte of pmcd.agent.status as PCP has
// it; the next byte holds an exit status and the one after a signal.
const (
	reasonExit     = 2
	reasonNoStart  = 4
	reasonProtocol = 8
)

// status is pmcd.agent.status: 0 running, 1 busy, else why it stopped.
// It takes no lock, so pmcd's own agent can report on every agent,
// itself included, while requests hold their locks.
func (a *agent) status() int32 { return a.state.Load() }

// publish records the agent's status for status and alive. a.mu is held.
func (a *agent) publish() {
	switch {
	case a.b != nil && a.notReady:
		a.state.Store(1)
	case a.b != nil:
		a.state.Store(0)
	case a.reason != 0:
		a.state.Store(a.reason)
	default:
		a.state.Store(reasonNoStart)
	}
}

// profileKey names the client profile an agent last received: pmcd sends
// a PROFILE before a fetch only when it changed.
type profileKey struct {
	client *client
	ctxnum int32
	gen    uint64
}

// do runs one request with the agent's timeout. A lost, hung or
// malformed agent is closed and marked dead: the request fails with
// pcp.ErrIPC (pcp.ErrTimeout for a hung agent), and requests after it get
// pcp.ErrNoAgent, as with PCP's pmcd.
func (a *agent) do(ctx context.Context, from int32, req pdu.Message) (pdu.Message, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.doLocked(ctx, from, req)
}

func (a *agent) doLocked(ctx context.Context, from int32, req pdu.Message) (pdu.Message, error) {
	if a.b == nil {
		return nil, pcp.ErrNoAgent
	}
	if a.fenced.Load() {
		return nil, pcp.ErrPMDAFenced
	}
	if a.notReady {
		return nil, pcp.ErrAgain
	}
	// pmcd's own agent answers from memory at once. A daemon's reads and
	// writes each have the agent timeout, and the request goes on even if
	// the client goes, which keeps the conversation in step; an
	// in-process agent has the timeout as a deadline.
	d, isDaemon := a.b.(*daemon)
	switch p, ok := a.b.(*inProc); {
	case isDaemon:
		d.r.Timeout, d.w.Timeout = a.s.agentTimeout(), a.s.agentTimeout()
		ctx = context.Background()
	case ok && !p.own:
		p.timeout = a.s.agentTimeout()
	}
	if isDaemon {
		a.s.countOut(req.PDUType())
	}
	reply, err := a.b.call(ctx, from, req)
	if isDaemon {
		switch {
		case reply != nil:
			a.s.countIn(reply.PDUType())
		case err != nil && !errors.Is(err, errAgentLost):
			a.s.countIn(pdu.TypeError)
		}
	}
	if err == nil {
		return reply, nil
	}
	var code pcp.Error
	if !errors.Is(err, errAgentLost) && !errors.Is(err, pcp.ErrIPC) && errors.As(err, &code) {
		if d, ok := a.b.(*daemon); ok && code == pcp.ErrPMDANotReady {
			a.waitReady(d)
			return nil, pcp.ErrAgain
		}
		return nil, code
	}
	if !errors.Is(err, errAgentLost) && !errors.Is(err, pcp.ErrIPC) && ctx.Err() == nil {
		// A Go agent's own error that is not a PCP code.
		return nil, pcp.ErrGeneric
	}
	return nil, a.lost(req.PDUType(), err)
}

// lost marks the agent dead after err, a failure of the conversation
// with it during a request of type t, and returns that request's error.
// a.mu is held.
func (a *agent) lost(t pdu.Type, err error) error {
	a.kill(fmt.Errorf("%v request: %w", t, err))
	// The request that finds the agent gone fails as PCP's pmcd fails
	// it; the requests after it get PM_ERR_NOAGENT.
	if errors.Is(err, pcp.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) {
		return pcp.ErrTimeout
	}
	if errors.Is(err, syscall.EPIPE) {
		// The request could not be sent: the agent had gone before it.
		return pcp.Error(-int32(syscall.EPIPE))
	}
	return pcp.ErrIPC
}

// notify sends req, a PDU that has no reply, and leaves the agent as it
// is whatever happens: PCP's pmcd ignores the outcome of its context-end
// notices. An in-process agent has the agent timeout as its deadline.
func (a *agent) notify(from int32, req pdu.Message) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.b == nil || a.fenced.Load() || a.notReady {
		return
	}
	switch p, ok := a.b.(*inProc); {
	case ok && !p.own:
		p.timeout = a.s.agentTimeout()
	case !ok:
		if d, isDaemon := a.b.(*daemon); isDaemon {
			d.r.Timeout, d.w.Timeout = a.s.agentTimeout(), a.s.agentTimeout()
			a.s.countOut(req.PDUType())
		}
	}
	_, _ = a.b.call(context.Background(), from, req)
}

// kill closes the agent's connection and marks it dead. a.mu is held.
func (a *agent) kill(why error) {
	if a.b == nil {
		return
	}
	a.s.logf("Warning: agent %q (domain %d) is dead: %v", a.conf.Name, a.conf.Domain, why)
	b := a.b
	cleanup := cleanupExit
	if !errors.Is(why, errProcessEnded) {
		cleanup = protocolFailure(b) // before its descriptors close
	}
	a.b = nil
	a.direct.Store(nil)
	if p, ok := b.(*inProc); ok {
		// Fetches already waiting for it fail now, not once it
		// has closed.
		p.giveUp()
	}
	a.reason = reasonProtocol
	a.publish()
	a.s.markChanges(changeDropAgent)
	closed := make(chan struct{})
	if _, ok := b.(*inProc); ok {
		a.closed = closed
	}
	a.s.scheduleRestart(a)
	// Closing may wait for the process; the lock is not held that long.
	a.s.bg.Add(1)
	go func() {
		defer a.s.bg.Done()
		a.s.closeBackend(a.conf, b)
		close(closed)
		a.s.logCleanup(a.conf, cleanup, b)
		// The process's end, once known, adds to why it stopped.
		if d, ok := b.(*daemon); ok && d.cmd != nil && d.cmd.ProcessState != nil {
			extra := int32(0)
			if ws, ok := d.cmd.ProcessState.Sys().(syscall.WaitStatus); ok {
				switch {
				case ws.Exited():
					extra = int32(ws.ExitStatus()) << 8
				case ws.Signaled():
					extra = int32(ws.Signal()) << 16
				}
			}
			a.mu.Lock()
			if a.b == nil {
				a.reason |= extra
				a.publish()
			}
			a.mu.Unlock()
		}
	}()
}

// fetch sends the client's profile for req's context if the agent has
// not got it yet, then req, under one hold of the lock so another
// client's profile cannot come between them. req is the FETCH as the
// client's connection decoded it, or the part of it for this agent's
// domain; it is the caller's, and read only until fetch returns. A
// daemon's answer is decoded into into when it is not nil, storage the
// caller owns and reuses; else into new storage. An in-process agent is
// called on the caller's goroutine, and r carries on with the caller's
// work if the call hangs (fetchDirect).
func (a *agent) fetch(ctx context.Context, c *client, req *pdu.Fetch, into *pdu.Result, r rescuer) (*pcp.Result, error) {
	if a.conf.Kind == AgentDSO {
		if p := a.direct.Load(); p != nil {
			return a.fetchDirect(c, req, into, p, r)
		}
	} else if into != nil {
		return a.fetchQueued(ctx, c, req, into)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	key := profileKey{client: c, ctxnum: req.Context, gen: c.profileGen(req.Context)}
	return a.fetchLocked(ctx, c, req, into, key, c.profileFor(req.Context))
}

// fetchLocked is fetch with a.mu held; key and prof are the client's
// profile for the request's context.
func (a *agent) fetchLocked(ctx context.Context, c *client, req *pdu.Fetch, into *pdu.Result, key profileKey, prof *pdu.Profile) (*pcp.Result, error) {
	var msg pdu.Message = req
	switch b := a.b.(type) {
	case *daemon:
		// Only this call uses it until it returns: the agent's
		// requests are one at a time.
		b.into = into
		defer func() { b.into = nil }()
	case *inProc:
		b.into = into
		defer func() { b.into = nil }()
	}
	if a.prof != key {
		if _, ok := a.b.(*daemon); ok {
			// One write for both PDUs: the bytes are PCP's, the
			// system calls half.
			a.s.countOut(pdu.TypeProfile)
			// Kept in the agent (under a.mu): boxing a new one in
			// msg cost an allocation each time clients alternate.
			a.pf = profiledFetch{prof, req}
			msg = &a.pf
		} else if _, err := a.doLocked(ctx, c.num, prof); err != nil {
			return nil, err
		}
	}
	reply, err := a.doLocked(ctx, c.num, msg)
	a.pf = profiledFetch{} // holds the client's profile and request
	// The profile went, whatever the agent made of the fetch; an agent
	// lost meanwhile starts afresh with no profile when restarted.
	a.prof = key
	if err != nil {
		return nil, err
	}
	r := &reply.(*pdu.Result).Result
	if len(r.Sets) != len(req.PMIDs) {
		// A daemon out of step with its requests is ended; an
		// in-process agent's slip is only this fetch's PM_ERR_PMID.
		if a.conf.Kind == AgentDSO {
			return nil, pcp.ErrPMID
		}
		a.kill(fmt.Errorf("%d value sets for %d PMIDs: %w", len(r.Sets), len(req.PMIDs), pcp.ErrIPC))
		return nil, pcp.ErrIPC
	}
	return r, nil
}

// profiledFetch is a PROFILE and a FETCH sent to a daemon agent
// together. It is only ever encoded.
type profiledFetch struct {
	prof  *pdu.Profile
	fetch *pdu.Fetch
}

func (m profiledFetch) PDUType() pdu.Type { return pdu.TypeFetch }

func (m profiledFetch) Append(dst []byte, from int32) []byte {
	return m.fetch.Append(m.prof.Append(dst, from), from)
}

func (m profiledFetch) Decode([]byte) error { return pcp.ErrIPC }

// alive says whether the agent still answers (or is busy); it takes no
// lock.
func (a *agent) alive() bool {
	st := a.state.Load()
	return st == 0 || st == 1
}

// stop closes the agent for good, waiting for its process.
func (a *agent) stop(why string) {
	a.mu.Lock()
	b := a.b
	a.b = nil
	a.direct.Store(nil)
	if b != nil {
		a.reason = reasonExit
		a.s.markChanges(changeDropAgent)
	}
	a.publish()
	a.mu.Unlock()
	if b != nil {
		a.s.closeBackend(a.conf, b)
		// At shutdown PCP reports only the processes it started and
		// saw end; an agent dropped from pmcd.conf it always reports.
		if d, ok := b.(*daemon); why == cleanupConfig || ok && d.cmd != nil && !d.killed {
			a.s.logCleanup(a.conf, why, b)
		}
	}
}

// waitReady marks daemon d busy and watches for the PM_ERR_PMDAREADY it
// sends when it can take requests again. No request is sent meanwhile,
// so the watcher has the connection to itself; it ends when the agent is
// ready, dead or closed. a.mu is held.
func (a *agent) waitReady(d *daemon) {
	a.notReady = true
	a.publish()
	a.s.bg.Add(1)
	go func() {
		defer a.s.bg.Done()
		for {
			b, err := d.r.ReadPDU(context.Background())
			var m pdu.Error
			if err == nil {
				err = m.Decode(b)
			}
			a.mu.Lock()
			if a.b != d {
				a.mu.Unlock()
				return
			}
			switch {
			case err != nil:
				a.kill(fmt.Errorf("waiting for it to be ready: %w", err))
			case pcp.Error(m.Code) == pcp.ErrPMDAReady:
				a.notReady = false
				a.publish()
			default:
				a.mu.Unlock()
				continue
			}
			a.mu.Unlock()
			return
		}
	}()
}
