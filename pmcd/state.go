package pmcd

import (
	"cmp"
	"slices"

	"github.com/gopcp/gopcp/access"
	pmcdagent "github.com/gopcp/gopcp/agents/pmcd"
	"github.com/gopcp/gopcp/pmns"
)

// state is what pmcd.conf and the namespace set up: the namespace, the
// agents by domain and in pmcd.conf order, and the access control. A
// state is never changed once published; Reload publishes a new one, and
// each request works with the state it found when it began.
type state struct {
	conf   *Conf
	pmns   *pmns.Tree
	agents map[uint32]*agent
	order  []*agent
	// byDomain is order sorted by domain, as pmcd.agent.* list them.
	byDomain []*agent
	// views and viewsByDomain are order and byDomain as pmcd's own agent
	// sees them.
	views, viewsByDomain []pmcdagent.Agent
	acl                  *access.Control
}

// publish completes a new state before it is stored: byDomain from order.
func (st *state) publish() *state {
	st.byDomain = slices.Clone(st.order)
	slices.SortStableFunc(st.byDomain, func(x, y *agent) int { return cmp.Compare(x.conf.Domain, y.conf.Domain) })
	st.views, st.viewsByDomain = agentViews(st.order), agentViews(st.byDomain)
	return st
}

func agentViews(as []*agent) []pmcdagent.Agent {
	out := make([]pmcdagent.Agent, len(as))
	for i, a := range as {
		out[i] = a
	}
	return out
}

// st is the state in force.
func (s *Server) st() *state {
	if st := s.cur.Load(); st != nil {
		return st
	}
	return &state{conf: s.Conf, pmns: s.PMNS, acl: s.aclOf(s.Conf)}
}

// aclOf is the access control of conf, nil for none.
func (s *Server) aclOf(conf *Conf) *access.Control {
	if conf == nil {
		return nil
	}
	return conf.ACL
}

// agentOf is the agent of a domain, or nil when pmcd.conf names none.
func (s *Server) agentOf(domain uint32) *agent {
	return s.st().agents[domain]
}

// agentOf is the agent of a domain in the state of the client's current
// request.
func (c *client) agentOf(domain uint32) *agent {
	return c.st.agents[domain]
}
