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
// request becomes a call of the agent's method set, and the answer is
// put in the PDU form a daemon agent would have sent.
type inProc struct {
	a *pmda.Agent
	// own marks pmcd's own agent, which answers from pmcd's memory and is
	// called directly, without a goroutine to time it out.
	own bool
	// into, when not nil, is where call copies a fetch's answer: storage
	// of the client being served, set under the agent's lock for one
	// call.
	into *pdu.Result
}

func (p *inProc) flags() pdu.Flags { return p.a.Flags() }

func (p *inProc) close() {}

// callResult carries an in-process call's answer back.
type callResult struct {
	reply pdu.Message
	err   error
}

// call answers req for client from. The agent runs on a goroutine of its
// own so that pmcd can give up on it at ctx's deadline, as it gives up on
// a daemon that does not answer: the agent is then marked dead and its
// goroutine left to finish on its own. A panic in the agent's code is
// turned into pcp.ErrIPC, which marks the agent dead too; the daemon
// carries on.
func (p *inProc) call(ctx context.Context, from int32, req pdu.Message) (pdu.Message, error) {
	if p.own {
		return p.kept(p.callDirect(ctx, from, req))
	}
	done := make(chan callResult, 1)
	go func() {
		reply, err := p.callDirect(ctx, from, req)
		done <- callResult{reply, err}
	}()
	select {
	case r := <-done:
		return p.kept(r.reply, r.err)
	case <-ctx.Done():
		return nil, fmt.Errorf("%w: agent %s: %w", errAgentLost, p.a.Name(), pcp.ErrTimeout)
	}
}

// agentResult is a fetch's answer as the agent holds it, valid until its
// next fetch; it never leaves call.
type agentResult struct{ r *pcp.Result }

func (agentResult) PDUType() pdu.Type                 { return pdu.TypeResult }
func (agentResult) Append(dst []byte, _ int32) []byte { return dst }
func (agentResult) Decode([]byte) error               { return pcp.ErrIPC }

// kept turns an agentResult into a copy pmcd keeps: into the storage of
// the client being served when there is one, else new storage. It runs
// on the caller's side, so an agent's goroutine left behind by a timeout
// never writes into a client's storage.
func (p *inProc) kept(reply pdu.Message, err error) (pdu.Message, error) {
	ar, ok := reply.(agentResult)
	if !ok {
		return reply, err
	}
	if p.into != nil {
		copyResultInto(&p.into.Result, ar.r)
		return p.into, nil
	}
	return &pdu.Result{Result: copyResult(ar.r)}, nil
}

func (p *inProc) callDirect(ctx context.Context, from int32, req pdu.Message) (reply pdu.Message, err error) {
	defer func() {
		if v := recover(); v != nil {
			reply, err = nil, fmt.Errorf("pmcd: agent %s panicked: %v: %w", p.a.Name(), v, pcp.ErrIPC)
		}
	}()
	c := pmda.Client(from)
	switch m := req.(type) {
	case *pdu.Profile:
		p.a.ProfileFrom(c, m)
		return nil, nil
	case *pdu.Attr:
		return nil, p.a.Attribute(c, m.Key, m.Value)
	case *pdu.Error:
		p.a.EndContext(c)
		return nil, nil
	case *pdu.Fetch:
		r, err := p.a.Fetch(ctx, c, m.PMIDs)
		if err != nil {
			return nil, err
		}
		// The agent reuses its result on the next fetch: call keeps a
		// copy.
		return agentResult{r}, nil
	case *pdu.DescReq:
		d, err := p.a.Desc(ctx, c, m.PMID)
		if err != nil {
			return nil, err
		}
		return &pdu.Desc{Desc: d}, nil
	case *pdu.InstanceReq:
		return p.a.Instance(ctx, c, m.InDom, m.Inst, m.Name)
	case *pdu.TextReq:
		t, err := p.a.Text(ctx, c, m.Ident, m.Type)
		if err != nil {
			return nil, err
		}
		return &pdu.Text{Ident: m.Ident, Text: t}, nil
	case *pdu.LabelReq:
		sets, err := p.a.Label(ctx, c, m.Ident, uint8(m.Type))
		if err != nil {
			return nil, err
		}
		return &pdu.Label{Ident: m.Ident, Type: m.Type, Sets: sets}, nil
	case *pdu.Result:
		if err := p.a.Store(ctx, c, &m.Result); err != nil {
			return nil, err
		}
		return &pdu.Error{}, nil
	case *pdu.PMNSNames:
		ids := make([]pcp.PMID, len(m.Names))
		found := 0
		var first error
		for i, name := range m.Names {
			id, err := p.a.LookupName(ctx, c, name)
			if err != nil {
				ids[i] = pcp.PMIDNull
				if first == nil {
					first = err
				}
				continue
			}
			ids[i] = id
			found++
		}
		if found == 0 && first != nil {
			return nil, first
		}
		return &pdu.PMNSIDs{Status: int32(found), PMIDs: ids}, nil
	case *pdu.PMNSIDs:
		if len(m.PMIDs) != 1 {
			return nil, pcp.ErrIPC
		}
		names, err := p.a.Names(ctx, c, m.PMIDs[0])
		if err != nil {
			return nil, err
		}
		return &pdu.PMNSNames{Names: names}, nil
	case *pdu.PMNSChild:
		names, status, err := p.a.Children(ctx, c, m.Name)
		if err != nil {
			return nil, err
		}
		if m.Subtype == pdu.PMNSChildNames {
			status = nil
		}
		return &pdu.PMNSNames{Names: names, Status: status}, nil
	case *pdu.PMNSTraverse:
		names, err := p.a.Traverse(ctx, c, m.Name)
		if err != nil {
			return nil, err
		}
		return &pdu.PMNSNames{Names: names}, nil
	}
	return nil, pcp.ErrIPC
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
