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
		if d, ok := b.(*daemon); ok && ac.NotReady {
			a.mu.Lock()
			a.waitReady(d)
			a.mu.Unlock()
		}
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

// RestartDead starts again every agent that has died or failed to start,
// as PCP's pmcd does on SIGHUP; pmcd.conf is not read again. It returns
// how many agents answer afterwards. It is safe to call while serving.
func (s *Server) RestartDead(ctx context.Context) int {
	// Before the first Serve, this is the first start.
	s.once.Do(func() { s.startAgents(ctx) })
	live := 0
	for _, a := range s.agents {
		if a.alive() {
			live++
			continue
		}
		b, err := s.startAgent(ctx, a.conf)
		if err != nil {
			s.logf("cannot restart agent %q (domain %d): %v", a.conf.Name, a.conf.Domain, err)
			continue
		}
		a.mu.Lock()
		if a.b == nil {
			a.b, a.prof, a.notReady = b, profileKey{}, false
			if d, ok := b.(*daemon); ok && a.conf.NotReady {
				a.waitReady(d)
			}
			b = nil
		}
		a.mu.Unlock()
		if b != nil {
			b.close() // restarted meanwhile by another call
		}
		s.logf("agent %q (domain %d) restarted", a.conf.Name, a.conf.Domain)
		live++
	}
	return live
}
