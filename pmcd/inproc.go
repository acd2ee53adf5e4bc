package pmcd

import (
	"context"
	"fmt"
	"slices"

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
	// called directly, without a goroutine to time it out.
	own bool
	// entry is the address of the Go function that built the agent,
	// shown in the agent table where PCP shows the DSO's entry point.
	entry uintptr
	// into, when not nil, is where call copies a fetch's answer: storage
	// of the client being served, set under the agent's lock for one
	// call.
	into *pdu.Result
	// fetch is the FETCH the agent's goroutine reads, a copy of the
	// client's (see call).
	fetch pdu.Fetch
}

func (p *inProc) flags() pdu.Flags { return p.a.Flags() }

// close ends the agent (pmda.Agent.Close): its listeners, goroutines and
// mappings go with it, so that an agent started again in its place finds
// its port free.
func (p *inProc) close() {
	_ = p.a.Close()
}

// callResult carries an in-process call's answer back.
type callResult struct {
	reply pdu.Message
	err   error
}

// call answers req for client from. The agent runs on a goroutine of its
// own so that pmcd can give up on it at ctx's deadline, as it gives up on
// a daemon that does not answer: the agent is then marked dead and its
// goroutine left to finish on its own. A panic in the agent's code comes
// back from Handle as pcp.ErrIPC, which marks the agent dead too; the
// daemon carries on.
func (p *inProc) call(ctx context.Context, from int32, req pdu.Message) (pdu.Message, error) {
	c := pmda.Client(from)
	if p.own {
		return p.kept(p.a.Handle(ctx, c, req))
	}
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
	done := make(chan callResult, 1)
	go func() {
		reply, err := p.a.Handle(ctx, c, req)
		done <- callResult{reply, err}
	}()
	select {
	case r := <-done:
		return p.kept(r.reply, r.err)
	case <-ctx.Done():
		return nil, fmt.Errorf("%w: agent %s: %w", errAgentLost, p.a.Name(), pcp.ErrTimeout)
	}
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
