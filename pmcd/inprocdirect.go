package pmcd

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// Fetches from in-process agents are made on the caller's goroutine,
// with the agent's lock (inProc.lock) held for the call: a hand-off to a
// goroutine of the agent's and back cost two goroutine switches a fetch
// and, with more than one P, a thread woken to steal the work, about
// 1.5 µs a fetch, and left clients waiting for the hand-off while a CPU
// idled. The watchdog times the call as it times a handed-off one. When
// the call outlives its timeout, the caller's goroutine is in the agent's
// code and cannot be got back, so its work is carried on by another: the
// watchdog gives the agent up, so that every caller waiting for the lock
// fails at once (PM_ERR_NOAGENT, as requests after a dead agent's
// PM_ERR_TIMEOUT get), and starts the call's rescuer, which marks the
// agent dead (restarted as any dead agent is), answers the caller's
// request with PM_ERR_TIMEOUT and goes on with the caller's work (the
// client's next requests, or the rest of a fetch of several agents). If
// the call ever returns, its goroutine finds it was given up on and ends
// (runtime.Goexit) without touching anything the rescuer now owns.

// rescuer carries on with the work of a caller whose direct call to an
// in-process agent was given up on.
type rescuer interface {
	// takeOver, run by the watchdog before the call's goroutine can
	// learn that it was given up on, makes the rescuer the owner of
	// the caller's work.
	takeOver()
	// rescue, on a goroutine of its own, does the caller's work from
	// the call on, as if the call had failed with err.
	rescue(p *inProc, err error)
}

// fetchDirect is fetch for in-process agent p, called on the caller's
// goroutine; r carries on if the call hangs (see above). The answer is
// copied into into when it is not nil, else into new storage.
func (a *agent) fetchDirect(c *client, req *pdu.Fetch, into *pdu.Result, p *inProc, r rescuer) (*pcp.Result, error) {
	res, h, err := a.callDirect(c, req, p, r)
	if err != nil {
		return nil, err
	}
	// The agent's answer is its own storage until its next fetch.
	var out *pcp.Result
	if into != nil {
		copyResultInto(&into.Result, res)
		out = &into.Result
	} else {
		kept := copyResult(res)
		out = &kept
	}
	p.release(h)
	return out, nil
}

// callDirect asks in-process agent p for req on the caller's goroutine;
// r carries on if the call hangs (see above). The client's profile goes
// first when the agent has not got it, under the same hold of the lock.
// The answer is the agent's own storage, and p's lock is still held, as
// hold h, for the caller to read it: the caller gives it back
// (p.release(h)). On an error the lock has been given back.
func (a *agent) callDirect(c *client, req *pdu.Fetch, p *inProc, r rescuer) (_ *pcp.Result, h uint64, _ error) {
	if a.fenced.Load() {
		return nil, 0, pcp.ErrPMDAFenced
	}
	p.init()
	if h = p.acquire(); h == 0 {
		return nil, 0, pcp.ErrNoAgent
	}
	p.owner = a
	timeout := a.s.agentTimeout()
	from := pmda.Client(c.num)
	if key := (profileKey{client: c, ctxnum: req.Context, gen: c.profileGen(req.Context)}); p.prof != key {
		// The profile went, whatever the agent made of it.
		p.prof = key
		seq := p.begin(timeout, r)
		_, err := p.a.Handle(&p.cctx, from, c.profileFor(req.Context))
		p.ended(seq)
		if err != nil {
			return nil, 0, a.directFailed(p, h, pdu.TypeProfile, err)
		}
	}
	// The agent reads a copy of the request, which a goroutine left in
	// it by a time-out may still read while the client's next request
	// is decoded into the client's storage.
	p.fetch.Context = req.Context
	p.fetch.PMIDs = append(p.fetch.PMIDs[:0], req.PMIDs...)
	seq := p.begin(timeout, r)
	reply, err := p.a.Handle(&p.cctx, from, &p.fetch)
	p.ended(seq)
	if err != nil {
		return nil, 0, a.directFailed(p, h, pdu.TypeFetch, err)
	}
	res, ok := reply.(*pdu.Result)
	if !ok || len(res.Sets) != len(req.PMIDs) {
		// An in-process agent's slip is only this fetch's PM_ERR_PMID.
		p.release(h)
		return nil, 0, pcp.ErrPMID
	}
	return &res.Result, h, nil
}

// ended ends direct call seq, or, when the watchdog has given up on it,
// ends the goroutine: its work belongs to the call's rescuer, which has
// taken it over by the time watchMu is free (see watch).
func (p *inProc) ended(seq uint64) {
	if p.state.CompareAndSwap(callState(seq, callRunning|callDirect), callState(seq, callIdle)) {
		return
	}
	// Taken for the wait alone: the watchdog holds it until the
	// rescuer owns the work.
	p.watchMu.Lock()
	p.watchMu.Unlock()
	runtime.Goexit()
}

// directFailed is the error of a direct call that failed with err, as
// doLocked has it for an in-process agent; a panic in the agent's code
// (pcp.ErrIPC) marks the agent dead. The agent's lock is held, as hold h,
// and given back.
func (a *agent) directFailed(p *inProc, h uint64, t pdu.Type, err error) error {
	var code pcp.Error
	switch {
	case !errors.Is(err, pcp.ErrIPC) && errors.As(err, &code):
		p.release(h)
		return code
	case !errors.Is(err, pcp.ErrIPC):
		// A Go agent's own error that is not a PCP code.
		p.release(h)
		return pcp.ErrGeneric
	}
	// No one calls it again: those waiting for the lock fail, and so
	// does whoever takes it after (but close, which waits for it).
	p.giveUp()
	p.release(h)
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.b != p {
		return pcp.ErrNoAgent
	}
	return a.lost(t, fmt.Errorf("%w: agent %s: %w", errAgentLost, p.a.Name(), err))
}

// markHung marks the agent of p dead after a direct call to it timed out
// (err), unless it was already.
func (a *agent) markHung(p *inProc, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.b == p {
		a.lost(pdu.TypeFetch, fmt.Errorf("%w: agent %s: %w", errAgentLost, p.a.Name(), err))
	}
}
