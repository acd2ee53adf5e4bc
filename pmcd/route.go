package pmcd

import (
	"context"
	"errors"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// ask sends req to the agent of domain for this client; notFound is the
// answer when pmcd.conf names no agent for the domain.
func (c *client) ask(ctx context.Context, domain uint32, req pdu.Message, notFound error) (pdu.Message, error) {
	a := c.agentOf(domain)
	if a == nil {
		return nil, notFound
	}
	return a.do(ctx, c.num, req)
}

// desc is one descriptor from its agent, PM_ERR_PMID when pmcd.conf has
// no agent for the domain.
func (c *client) desc(ctx context.Context, id pcp.PMID) (pcp.Desc, error) {
	m, err := c.ask(ctx, id.Domain(), &pdu.DescReq{PMID: id}, pcp.ErrPMID)
	if err != nil {
		return pcp.Desc{}, err
	}
	return m.(*pdu.Desc).Desc, nil
}

// descs answers DESC_IDS as PCP's pmcd does, one DESC_REQ per PMID to its
// agent: with one PMID its error is the answer, with several a failed
// descriptor is left with a null PMID.
func (c *client) descs(ctx context.Context, ids []pcp.PMID) (pdu.Message, error) {
	out := &pdu.Descs{Descs: make([]pcp.Desc, len(ids))}
	for i, id := range ids {
		d, err := c.desc(ctx, id)
		if err != nil {
			if len(ids) == 1 {
				return nil, err
			}
			d = pcp.Desc{PMID: pcp.PMIDNull}
		}
		out.Descs[i] = d
	}
	return out, nil
}

// textDomain is the domain a TEXT_REQ's ident belongs to.
func textDomain(m *pdu.TextReq) uint32 {
	if m.Type&pdu.TextInDom != 0 {
		return pcp.InDom(m.Ident).Domain()
	}
	return pcp.PMID(m.Ident).Domain()
}

// labels answers LABEL_REQ: the context level is pmcd's own, the others
// come from the agent owning the ident.
func (c *client) labels(ctx context.Context, m *pdu.LabelReq) (pdu.Message, error) {
	var domain uint32
	switch uint8(m.Type) {
	case pcp.LabelContext:
		return c.contextLabels(m)
	case pcp.LabelDomain:
		domain = m.Ident
	case pcp.LabelInDom, pcp.LabelInstances:
		domain = pcp.InDom(m.Ident).Domain()
	case pcp.LabelCluster, pcp.LabelItem:
		domain = pcp.PMID(m.Ident).Domain()
	default:
		return nil, pcp.ErrType
	}
	a := c.agentOf(domain)
	if a == nil || m.Type>>8 != 0 {
		return nil, labelsWithoutAgents(m.Type)
	}
	if reply, ok, err := a.loaderLabels(m); ok {
		return reply, err
	}
	return c.ask(ctx, domain, m, pcp.ErrNoAgent)
}

// store splits a store request by domain and hands every agent its
// sets, as PCP's pmcd does: the answer is the last agent's error, except
// that a PMID whose agent is absent or dead makes it PM_ERR_NOAGENT.
func (c *client) store(ctx context.Context, r *pcp.Result) error {
	var order []uint32
	byDomain := make(map[uint32][]pcp.ValueSet)
	for _, set := range r.Sets {
		d := set.PMID.Domain()
		if _, ok := byDomain[d]; !ok {
			order = append(order, d)
		}
		byDomain[d] = append(byDomain[d], set)
	}
	var status error
	homeless := false
	for _, d := range order {
		req := &pdu.Result{Result: pcp.Result{Timestamp: r.Timestamp, Sets: byDomain[d]}}
		_, err := c.ask(ctx, d, req, pcp.ErrNoAgent)
		switch {
		case errors.Is(err, pcp.ErrNoAgent):
			homeless = true
		case err != nil:
			status = err
		}
	}
	if homeless {
		return pcp.ErrNoAgent
	}
	return status
}

// endContexts tells every live agent that this client's context has
// ended, with the ERROR PDU of PM_ERR_NOTCONN PCP's pmcd sends to all its
// agents, whether the client used them or not. As in PCP's pmcd, a
// notice that cannot be sent (the agent has died since its last request)
// is no finding: the agent's next request finds it dead and fails as
// that request fails, not with PM_ERR_NOAGENT because some client left.
func (c *client) endContexts() {
	for _, a := range c.s.st().order {
		if a.alive() {
			a.notify(c.num, &pdu.Error{Code: int32(pcp.ErrNotConn)})
		}
	}
}
