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
	// A hung agent's values carry PM_ERR_TIMEOUT when it was the only
	// daemon asked, else PM_ERR_NOAGENT, as PCP's pmcd has it.
	daemons := 0
	for _, d := range order {
		if a := c.agentOf(d); a != nil && a.conf.Kind != AgentDSO {
			daemons++
		}
	}
	// Each agent is sent the part of the request for its domain; the
	// parts share two allocations.
	subs := make([]pdu.Fetch, len(order))
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
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := a.fetch(ctx, c, sub, nil)
			if errors.Is(err, pcp.ErrTimeout) && daemons > 1 {
				err = pcp.ErrNoAgent
			}
			if err != nil {
				fillError(out, ids, idx, err)
				return
			}
			changes.Or(agentChanges(r.Timestamp.Sec))
			for j, i := range idx {
				out.Sets[i] = r.Sets[j]
				// Agents answer for the PMIDs asked; keep the client's.
				out.Sets[i].PMID = ids[i]
			}
		}()
	}
	wg.Wait()
	c.s.markChanges(changes.Load())
	out.Timestamp = pcp.TimestampOf(timeNow())
	return out
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
	r, err := a.fetch(ctx, c, req, &c.agentReply)
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
