package pmcd

import (
	"context"
	"fmt"
	"sort"
	"time"

	pmcdagent "github.com/gopcp/gopcp/agents/pmcd"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// pmcdEntry is the pmcd.conf entry point of pmcd's own agent
// (package agents/pmcd), which pmcd builds itself for its server.
const pmcdEntry = pmcdagent.Entry

// agentHost is the Server as pmcd's own agent sees it
// (pmcdagent.Server).
type agentHost struct{ s *Server }

func (h agentHost) Controls() *pmcdagent.Controls { return &h.s.ctl }

func (h agentHost) AgentTimeout() time.Duration { return h.s.agentTimeout() }

func (h agentHost) Agents(byDomain bool) []pmcdagent.Agent {
	st := h.s.st()
	if byDomain {
		return st.viewsByDomain
	}
	return st.views
}

func (h agentHost) NumClients() int {
	h.s.clientsMu.Lock()
	defer h.s.clientsMu.Unlock()
	return len(h.s.clients)
}

func (h agentHost) Clients() []pmcdagent.Client {
	cs := h.s.clientsBySeq()
	out := make([]pmcdagent.Client, len(cs))
	for i, c := range cs {
		out[i] = c
	}
	return out
}

func (h agentHost) SetWhoami(n pmda.Client, name string) error {
	c := h.s.clientByNum(int32(n))
	if c == nil {
		return pcp.ErrNotConn
	}
	c.mu.Lock()
	c.whoami = name
	c.mu.Unlock()
	return nil
}

func (h agentHost) SetContainer(ctx context.Context, n pmda.Client, name string) error {
	c := h.s.clientByNum(int32(n))
	if c == nil {
		return pcp.ErrNotConn
	}
	c.setContainer(ctx, name)
	return nil
}

func (h agentHost) ClientUID(n pmda.Client) (uint32, bool) {
	c := h.s.clientByNum(int32(n))
	if c == nil || !c.id.HasCreds {
		return 0, false
	}
	return c.id.UID, true
}

func (h agentHost) Features() pmcdagent.Features {
	return pmcdagent.Features{
		Local:         h.s.Local,
		CredsRequired: h.s.RequireCreds || h.s.st().acl.HasAccounts(),
		UnixSocket:    h.s.unixServing.Load(),
	}
}

func (h agentHost) Hostname() string { return h.s.Hostname }
func (h agentHost) TZ() string       { return h.s.TZ }

// Rescan re-reads the files when the server has them, else restarts
// dead agents, as a SIGHUP would.
func (h agentHost) Rescan(ctx context.Context) {
	s := h.s
	if s.Files != nil {
		go s.Rescan(ctx, s.Files)
		return
	}
	s.ctl.Sighups.Add(1)
	go s.RestartDead(ctx)
}

func (h agentHost) DumpConnections() { h.s.dumpConnections() }

func (h agentHost) Logf(format string, args ...any) { h.s.logf(format, args...) }

// An agent as pmcd.agent.* report it (pmcdagent.Agent).

func (a *agent) Name() string   { return a.conf.Name }
func (a *agent) Domain() uint32 { return a.conf.Domain }
func (a *agent) Status() int32  { return a.status() }
func (a *agent) Alive() bool    { return a.alive() }
func (a *agent) Fenced() bool   { return a.fenced.Load() }
func (a *agent) SetFenced(on bool) {
	a.fenced.Store(on)
}
func (a *agent) Own() bool { return a.conf.Entry == pmcdEntry && a.conf.Kind == AgentDSO }

// Type is pmcd.agent.type: 0 in-process, 2 socket, 4 pipe.
// A switch: a map literal here was built on every fetch of it.
func (a *agent) Type() uint32 {
	switch a.conf.Kind {
	case AgentSocket:
		return 2
	case AgentPipe:
		return 4
	}
	return 0
}

// A client as pmcd.client.* report it (pmcdagent.Client).

func (c *client) Seq() int32       { return c.seq }
func (c *client) Start() time.Time { return c.start }

func (c *client) Whoami() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.whoami
}

func (c *client) Container() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := ""
	for _, at := range c.attrs {
		if at.key == pdu.AttrContainer {
			v = at.value
		}
	}
	return v
}

// clientsBySeq is the connected clients in order of arrival.
func (s *Server) clientsBySeq() []*client {
	cs := s.clientList()
	sort.Slice(cs, func(i, j int) bool { return cs[i].seq < cs[j].seq })
	return cs
}

// dumpConnections logs the clients and agents, as a store into
// pmcd.control.dumpconn asks.
// PCP's pmcd writes the client table, after a line with the time, bare.
func (s *Server) dumpConnections() {
	if w := s.bareLog(); w != nil {
		fmt.Fprintf(w, "\n->Current PMCD clients at %s%s", ctime(timeNow()), s.ClientTable())
	}
}
