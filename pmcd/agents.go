package pmcd

import (
	"context"
	"fmt"
	"io"

	"github.com/gopcp/gopcp/pcp"
)

// startAgents starts every agent of s.Conf, each within the agent
// timeout (at least PCP's five seconds, as agents load their tables
// first). An agent that fails to start is logged and left dead: its
// domain answers PM_ERR_NOAGENT, as with PCP's pmcd.
func (s *Server) startAgents(ctx context.Context) {
	if s.Conf == nil {
		return
	}
	s.agents = make(map[uint32]*agent, len(s.Conf.Agents))
	for _, ac := range s.Conf.Agents {
		a := &agent{conf: ac, s: s}
		s.agents[ac.Domain] = a
		b, err := s.startAgent(ctx, ac)
		if err != nil {
			s.logf("cannot start agent %q (domain %d): %v", ac.Name, ac.Domain, err)
			continue
		}
		a.b = b
	}
}

func (s *Server) startAgent(ctx context.Context, ac AgentConf) (backend, error) {
	ctx, cancel := context.WithTimeout(ctx, max(s.agentTimeout(), startTimeout))
	defer cancel()
	var stderr io.Writer
	if s.AgentStderr != nil {
		stderr = s.AgentStderr
	}
	switch ac.Kind {
	case AgentDSO:
		newAgent := lookupDSO(ac.Entry)
		if newAgent == nil {
			return nil, fmt.Errorf("no in-process agent has the entry point %q", ac.Entry)
		}
		a, err := newAgent(ac.Domain)
		if err != nil {
			return nil, err
		}
		if a.Domain() != ac.Domain {
			return nil, fmt.Errorf("agent has domain %d, not %d", a.Domain(), ac.Domain)
		}
		return &inProc{a: a}, nil
	case AgentPipe:
		return startPipe(ctx, ac, stderr)
	case AgentSocket:
		return startSocket(ctx, ac, stderr)
	}
	return nil, pcp.ErrIPC
}

// agentOf is the agent of a domain, or nil when pmcd.conf names none.
func (s *Server) agentOf(domain uint32) *agent {
	return s.agents[domain]
}

// Close stops the agents, closing their connections and waiting for
// their processes. Call it once every Serve has returned.
func (s *Server) Close() error {
	for _, a := range s.agents {
		a.stop()
	}
	s.bg.Wait()
	return nil
}
