package pmcd

import (
	"context"
	"slices"

	"github.com/gopcp/gopcp/pmns"
)

// Reload puts a new pmcd.conf and namespace in force while serving, as
// PCP's pmcd does on SIGHUP when the files have changed: agents whose
// lines are unchanged and which are alive carry on; new or changed ones
// are started, those gone or changed are stopped, and dead ones are
// started again. Every client is then judged again by the new access
// control, and one no longer allowed is told so and disconnected. A nil
// conf or tree keeps the one in force. Requests under way finish with
// what they began with. It is safe to call while serving.
func (s *Server) Reload(ctx context.Context, conf *Conf, tree *pmns.Tree) {
	s.once.Do(func() { s.startAgents(ctx) })
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	s.reapDead()
	old := s.st()
	if conf == nil {
		conf = old.conf
	}
	if tree == nil {
		tree = old.pmns
	}
	next := &state{conf: conf, pmns: tree, acl: s.aclOf(conf), agents: map[uint32]*agent{}}
	kept := map[*agent]bool{}
	if conf != nil {
		for _, ac := range conf.Agents {
			a := old.agents[ac.Domain]
			if a == nil || !sameAgent(a.conf, ac) {
				a = s.newAgentSlot(ac)
			} else {
				kept[a] = true
			}
			next.agents[ac.Domain] = a
			next.order = append(next.order, a)
		}
	}
	for _, a := range old.order {
		if !kept[a] {
			a.stop(cleanupConfig)
		}
	}
	for _, a := range next.order {
		if !a.alive() {
			s.bringUp(ctx, a)
		}
	}
	// pmcd.seqnum moved on for each agent started (bringUp), and no
	// more: PCP's pmcd counts agents' starts, not reloads.
	s.cur.Store(next.publish())
	// Agents new to this state hear of the clients' attributes.
	for _, c := range s.clientList() {
		c.mu.Lock()
		attrs := c.attrs
		c.mu.Unlock()
		for _, a := range next.order {
			if !kept[a] && len(attrs) > 0 {
				a.sendAttrs(ctx, c.num, attrs)
			}
		}
	}
	for _, c := range s.clientList() {
		c.readmit(next.acl)
	}
}

// sameAgent says whether two pmcd.conf lines describe the same agent,
// so a running one may be kept; the line number does not matter.
func sameAgent(a, b AgentConf) bool {
	return a.Name == b.Name && a.Domain == b.Domain && a.Kind == b.Kind &&
		a.Entry == b.Entry && a.Path == b.Path && a.Family == b.Family &&
		a.Addr == b.Addr && a.NotReady == b.NotReady && slices.Equal(a.Argv, b.Argv)
}
