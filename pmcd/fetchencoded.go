package pmcd

import (
	"context"
	"slices"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// An in-process agent's answer is the agent's own storage until its next
// fetch, which the agent's lock keeps away. A fetch of one in-process
// agent has its answer encoded straight from that storage while the lock
// is still held, where it was copied into the client's storage under the
// lock and encoded from the copy after: the lock is held about as long
// (encoding costs what the copy did), and the copy is saved. Fetches of
// several agents, and of daemon agents, are copied as before (fetchAll).

// answerFetch answers FETCH or HIGHRES_FETCH (t) req, whose context the
// client has a profile for; c.cur and c.curType are set.
func (c *client) answerFetch(ctx context.Context, t pdu.Type, req *pdu.Fetch) error {
	d, ok := oneDomain(req.PMIDs)
	if !ok {
		return c.sendResult(ctx, t, c.fetchAll(ctx, req))
	}
	a := c.agentOf(d)
	if a == nil || a.conf.Kind != AgentDSO {
		return c.sendResult(ctx, t, c.fetchAll(ctx, req))
	}
	// Sized for a rescuer, which fills in the error of a hung call.
	out := &c.result
	out.Sets = slices.Grow(out.Sets[:0], len(req.PMIDs))[:len(req.PMIDs)]
	changes, err := a.fetchEncoded(ctx, c, req)
	if err != nil {
		code := int32(pcp.CodeOf(err, pcp.ErrGeneric))
		for i, id := range req.PMIDs {
			out.Sets[i] = pcp.ValueSet{PMID: id, NumVal: code}
		}
		out.Timestamp = pcp.TimestampOf(timeNow())
		return c.sendResult(ctx, t, out)
	}
	// c.out holds the answer; the agents' news goes first, as
	// sendResult sends it.
	c.s.markChanges(changes)
	if err := c.sendChanges(ctx); err != nil {
		return err
	}
	return c.write(ctx, c.out)
}

// fetchEncoded asks in-process agent a for req and encodes its answer
// into c.out, as c.curType's answer, before the agent's lock is given
// back; it returns the state changes the agent announced.
func (a *agent) fetchEncoded(ctx context.Context, c *client, req *pdu.Fetch) (uint32, error) {
	if p := a.direct.Load(); p != nil {
		r, h, err := a.callDirect(c, req, p, c)
		if err != nil {
			return 0, err
		}
		changes := c.encodeAnswer(r, req.PMIDs)
		p.release(h)
		return changes, nil
	}
	// pmcd's own agent, called under the slot's lock (or an agent no
	// longer running, which fails as fetch fails).
	a.mu.Lock()
	defer a.mu.Unlock()
	p, _ := a.b.(*inProc)
	if p != nil {
		p.borrow = true
		defer func() { p.borrow = false }()
	}
	key := profileKey{client: c, ctxnum: req.Context, gen: c.profileGen(req.Context)}
	r, err := a.fetchLocked(ctx, c, req, nil, key, c.profileFor(req.Context))
	if err != nil {
		return 0, err
	}
	return c.encodeAnswer(r, req.PMIDs), nil
}

// encodeAnswer encodes agent's answer r to a fetch of ids into c.out,
// stamped now, and returns the state changes r announces. An agent
// answers for the PMIDs asked; should one not, the client's are put in a
// copy of the sets (c.result's), never in the agent's storage.
func (c *client) encodeAnswer(r *pcp.Result, ids []pcp.PMID) uint32 {
	ans := pcp.Result{Timestamp: pcp.TimestampOf(timeNow()), Sets: r.Sets}
	for i := range r.Sets {
		if r.Sets[i].PMID != ids[i] {
			out := c.result.Sets[:len(ids)]
			copy(out, r.Sets)
			for j := range out {
				out[j].PMID = ids[j]
			}
			ans.Sets = out
			break
		}
	}
	if c.curType == pdu.TypeHighResFetch {
		c.out = pdu.AppendHighResResult(c.out[:0], 0, &ans)
	} else {
		c.out = pdu.AppendResult(c.out[:0], 0, &ans)
	}
	return agentChanges(r.Timestamp.Sec)
}
