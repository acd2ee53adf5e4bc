package pmcd

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// fetch gathers a client's fetch as PCP's pmcd does: the PMIDs are split
// by domain, every agent concerned is asked at the same time with its own
// timeout, and the answers are put back in request order. A domain
// without an agent, or whose agent fails, gets a value set holding the
// error (PM_ERR_NOAGENT for an absent or dead agent); the other domains
// are not held up by it beyond their own timeouts.
//
// req is the FETCH as the connection decoded it; an agent that serves
// all of its PMIDs is handed it as it is. The result is the client's
// storage, reused by its next fetch. The state changes agents announce in
// their answers are marked for every client before it returns.
func (c *client) fetchAll(ctx context.Context, req *pdu.Fetch) *pcp.Result {
	ids := req.PMIDs
	out := &c.result
	out.Sets = slices.Grow(out.Sets[:0], len(ids))[:len(ids)]
	if d, ok := oneDomain(ids); ok {
		// The usual case: one agent, asked on this goroutine.
		c.s.markChanges(c.fetchOne(ctx, req, d, out))
		out.Timestamp = pcp.TimestampOf(timeNow())
		return out
	}
	byDomain := make(map[uint32][]int)
	var order []uint32
	for i, id := range ids {
		d := id.Domain()
		if _, ok := byDomain[d]; !ok {
			order = append(order, d)
		}
		byDomain[d] = append(byDomain[d], i)
	}
	// The daemon agents asked decide a hung agent's error (fetchPart).
	daemons := 0
	for _, d := range order {
		if a := c.agentOf(d); a != nil && a.conf.Kind != AgentDSO {
			daemons++
		}
	}
	// Each agent is sent the part of the request for its domain; the
	// parts share two allocations.
	subs := make([]pdu.Fetch, len(order))
	parts := make([]fetchPart, len(order))
	var changes atomic.Uint32
	pmids := make([]pcp.PMID, 0, len(ids))
	var wg sync.WaitGroup
	for k, d := range order {
		idx := byDomain[d]
		a := c.agentOf(d)
		if a == nil {
			fillError(out, ids, idx, pcp.ErrNoAgent)
			continue
		}
		at := len(pmids)
		for _, i := range idx {
			pmids = append(pmids, ids[i])
		}
		sub := &subs[k]
		*sub = pdu.Fetch{Context: req.Context, PMIDs: pmids[at:len(pmids):len(pmids)]}
		part := &parts[k]
		*part = fetchPart{out: out, ids: ids, idx: idx, daemons: daemons, wg: &wg}
		wg.Add(1)
		go func() {
			// No deferred Done: a goroutine left in a hung in-process
			// agent ends without it, its part rescued (fetchPart).
			r, err := a.fetch(ctx, c, sub, nil, part)
			if err != nil {
				part.fail(err)
				wg.Done()
				return
			}
			changes.Or(agentChanges(r.Timestamp.Sec))
			for j, i := range idx {
				out.Sets[i] = r.Sets[j]
				// Agents answer for the PMIDs asked; keep the client's.
				out.Sets[i].PMID = ids[i]
			}
			wg.Done()
		}()
	}
	wg.Wait()
	c.s.markChanges(changes.Load())
	out.Timestamp = pcp.TimestampOf(timeNow())
	return out
}

// fetchPart is one agent's part of a fetch of several, asked on a
// goroutine of its own.
type fetchPart struct {
	out     *pcp.Result
	ids     []pcp.PMID
	idx     []int // the part's places in ids
	daemons int   // the daemon agents asked
	wg      *sync.WaitGroup
}

// fail gives the part's value sets the error err.
func (f *fetchPart) fail(err error) {
	// A hung agent's values carry PM_ERR_TIMEOUT when it was the only
	// daemon asked, else PM_ERR_NOAGENT, as PCP's pmcd has it.
	if errors.Is(err, pcp.ErrTimeout) && f.daemons > 1 {
		err = pcp.ErrNoAgent
	}
	fillError(f.out, f.ids, f.idx, err)
}

// takeOver has nothing to do: the part's goroutine owns only the part.
func (f *fetchPart) takeOver() {}

// rescue ends the part of a goroutine left in a hung in-process agent p:
// the agent is dead, and the part fails with err.
func (f *fetchPart) rescue(p *inProc, err error) {
	p.owner.markHung(p, err)
	f.fail(err)
	f.wg.Done()
}

// fillError gives the value sets at idx the error err.
func fillError(r *pcp.Result, ids []pcp.PMID, idx []int, err error) {
	code := pcp.CodeOf(err, pcp.ErrGeneric)
	for _, i := range idx {
		r.Sets[i] = pcp.ValueSet{PMID: ids[i], NumVal: int32(code)}
	}
}

// oneDomain reports whether every PMID is of one domain, and which.
func oneDomain(ids []pcp.PMID) (uint32, bool) {
	if len(ids) == 0 {
		return 0, false
	}
	d := ids[0].Domain()
	for _, id := range ids[1:] {
		if id.Domain() != d {
			return 0, false
		}
	}
	return d, true
}

// fetchOne is fetchAll for a request whose PMIDs are all of domain d; it
// returns the state changes the agent announced.
func (c *client) fetchOne(ctx context.Context, req *pdu.Fetch, d uint32, out *pcp.Result) uint32 {
	ids := req.PMIDs
	a := c.agentOf(d)
	if a == nil {
		for i, id := range ids {
			out.Sets[i] = pcp.ValueSet{PMID: id, NumVal: int32(pcp.ErrNoAgent)}
		}
		return 0
	}
	r, err := a.fetch(ctx, c, req, &c.agentReply, c)
	if err != nil {
		code := pcp.CodeOf(err, pcp.ErrGeneric)
		for i, id := range ids {
			out.Sets[i] = pcp.ValueSet{PMID: id, NumVal: int32(code)}
		}
		return 0
	}
	for i := range ids {
		out.Sets[i] = r.Sets[i]
		out.Sets[i].PMID = ids[i]
	}
	return agentChanges(r.Timestamp.Sec)
}
