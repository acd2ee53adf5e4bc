package pmcd

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"runtime/debug"
	"time"

	pmcdagent "github.com/gopcp/gopcp/agents/pmcd"
	"github.com/gopcp/gopcp/pcp"
)

// startAgents starts every agent of s.Conf, each within the agent
// timeout (at least PCP's five seconds, as agents load their tables
// first), and publishes the first state. An agent that fails to start is
// logged and left dead: its domain answers PM_ERR_NOAGENT, as with PCP's
// pmcd.
func (s *Server) startAgents(ctx context.Context) {
	// Restarts outlive the call that started the agents; Close ends
	// them.
	s.restartCtx = context.WithoutCancel(ctx)
	s.ctl.Trace.Store(s.Trace)
	st := &state{conf: s.Conf, pmns: s.PMNS, acl: s.aclOf(s.Conf), agents: map[uint32]*agent{}}
	if s.Conf != nil {
		for _, ac := range s.Conf.Agents {
			a := s.newAgentSlot(ac)
			st.agents[ac.Domain] = a
			st.order = append(st.order, a)
			s.bringUp(ctx, a)
		}
	}
	s.cur.Store(st.publish())
	// Starting (the namespace, the agents' tables, their handshakes)
	// leaves garbage that serving never needs again: hand its pages back
	// now rather than keep them resident until the runtime's scavenger
	// gets to them, which it may not while pmcd allocates so little.
	debug.FreeOSMemory()
}

// newAgentSlot is the slot of one pmcd.conf agent line, not yet started.
func (s *Server) newAgentSlot(ac AgentConf) *agent {
	a := &agent{conf: ac, s: s}
	a.state.Store(reasonNoStart)
	return a
}

// bringUp starts a's agent, logging a failure; a must be dead.
func (s *Server) bringUp(ctx context.Context, a *agent) bool {
	a.mu.Lock()
	closed := a.closed
	a.mu.Unlock()
	if closed != nil {
		// The agent killed before (hung or panicked) may never finish
		// closing; its successor starts after the start timeout all the
		// same, without its port if the old one still holds it.
		t := time.NewTimer(max(s.agentTimeout(), startTimeout))
		select {
		case <-closed:
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
	}
	b, err := s.startAgent(ctx, a.conf)
	if err != nil {
		if lines, ok := startFailure(a.conf, err); ok && s.bareLog() != nil {
			io.WriteString(s.bareLog(), lines)
		} else {
			s.logf("Error: cannot start agent %q (domain %d): %v", a.conf.Name, a.conf.Domain, err)
		}
		a.mu.Lock()
		a.reason = reasonNoStart
		a.publish()
		a.mu.Unlock()
		return false
	}
	s.ctl.Seqnum.Add(1)
	a.mu.Lock()
	if a.b != nil {
		// Started meanwhile by another caller.
		a.mu.Unlock()
		b.close()
		return true
	}
	a.b, a.prof, a.notReady, a.reason = b, profileKey{}, false, 0
	if p, ok := b.(*inProc); ok && !p.own {
		a.direct.Store(p)
	}
	s.markChanges(changeAddAgent)
	a.wantsAttrs.Store(wantsAttrs(b.flags()))
	a.publish()
	if d, ok := b.(*daemon); ok && a.conf.NotReady {
		a.waitReady(d)
	}
	a.mu.Unlock()
	return true
}

func (s *Server) startAgent(ctx context.Context, ac AgentConf) (backend, error) {
	limit := max(s.agentTimeout(), startTimeout)
	if s.StartTimeout > 0 {
		limit = s.StartTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var stderr io.Writer
	if s.AgentStderr != nil {
		stderr = s.AgentStderr
	}
	switch ac.Kind {
	case AgentDSO:
		if ac.Entry == pmcdEntry {
			a, err := pmcdagent.New(ac.Domain, agentHost{s}, s.Log)
			if err != nil {
				return nil, err
			}
			return &inProc{a: a, own: true, entry: reflect.ValueOf(pmcdagent.New).Pointer()}, nil
		}
		newAgent := lookupDSO(ac.Entry)
		if newAgent == nil {
			return nil, fmt.Errorf("no Go agent has the DSO entry point %q (%s is not loaded)", ac.Entry, ac.Path)
		}
		a, err := newAgent(ac.Domain)
		if err != nil {
			return nil, err
		}
		if a.Domain() != ac.Domain {
			return nil, fmt.Errorf("agent has domain %d, not %d", a.Domain(), ac.Domain)
		}
		p := &inProc{a: a, entry: reflect.ValueOf(newAgent).Pointer()}
		if s.onInProc != nil {
			s.onInProc(p)
		}
		return p, nil
	case AgentPipe:
		return startPipe(ctx, ac, stderr, s.AgentDir, s.timeout())
	case AgentSocket:
		return startSocket(ctx, ac, stderr, s.AgentDir, s.timeout())
	}
	return nil, pcp.ErrIPC
}

// Close stops the agents, closing their connections and waiting for
// their processes. Call it once every Serve has returned; later calls
// only wait for the goroutines the agents left.
func (s *Server) Close() error {
	if s.closing.Swap(true) {
		s.bg.Wait()
		return nil
	}
	close(s.stopCh())
	s.idleFree.stop()
	s.procs().leave(s)
	for _, a := range s.st().order {
		a.stop(cleanupExit)
	}
	s.bg.Wait()
	// A restart under way when closing began may have started its
	// agent since.
	for _, a := range s.st().order {
		a.stop(cleanupExit)
	}
	s.bg.Wait()
	return nil
}

// RestartDead starts again every agent that has died or failed to start,
// as PCP's pmcd does on SIGHUP when pmcd.conf is unchanged. It returns
// how many agents answer afterwards. It is safe to call while serving.
func (s *Server) RestartDead(ctx context.Context) int {
	// Before the first Serve, this is the first start.
	s.once.Do(func() { s.startAgents(ctx) })
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	s.reapDead()
	live, dead := 0, 0
	for _, a := range s.st().order {
		if a.alive() {
			live++
			continue
		}
		dead++
		// Named in the log by Rescan beforehand, as PCP names them.
		if s.bringUp(ctx, a) {
			live++
		}
	}
	if dead > 0 {
		// Said whether or not they came back, as PCP's pmcd says it,
		// and counted once more in pmcd.seqnum as PCP's counts it.
		s.markChanges(changeRestartAgent)
		s.ctl.Seqnum.Add(1)
	}
	return live
}
