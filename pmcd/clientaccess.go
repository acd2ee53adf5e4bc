package pmcd

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/gopcp/gopcp/access"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// opOf is the operation a client PDU needs permission for, as PCP's pmcd
// classes them: storing is access.OpStore, everything else a client asks
// (names, descriptors, instances, text, labels, profiles, values) is
// access.OpFetch; CREDS and ATTR need none.
func opOf(t pdu.Type) int {
	switch t {
	case pdu.TypeResult:
		return access.OpStore
	case pdu.TypeProfile, pdu.TypeFetch, pdu.TypeHighResFetch, pdu.TypeInstanceReq,
		pdu.TypeLabelReq, pdu.TypeDescReq, pdu.TypeDescIDs, pdu.TypeTextReq,
		pdu.TypePMNSIDs, pdu.TypePMNSNames, pdu.TypePMNSChild, pdu.TypePMNSTraverse:
		return access.OpFetch
	}
	return 0
}

func (c *client) denied(op int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.deny&op != 0
}

// admitAccount applies user and group access control once the client
// has greeted; a refusal denies it everything from then on.
func (c *client) admitAccount() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.s.RequireCreds && !c.id.HasCreds {
		c.deny = access.OpAll
		return pcp.ErrPermission
	}
	deny, counted, err := c.acl.AdmitAccount(c.id, c.deny)
	c.deny = deny
	c.acctCounted = counted
	return err
}

// release gives back what access control counted for the client. c.mu
// is held.
func (c *client) release() {
	if c.hostCounted {
		c.acl.ReleaseHost(c.id)
	}
	if c.acctCounted {
		c.acl.ReleaseAccount(c.id)
	}
	c.hostCounted, c.acctCounted = false, false
}

// readmit judges the client again under acl, as PCP's pmcd does for
// every client after re-reading pmcd.conf: a client no longer allowed is
// told why and disconnected.
func (c *client) readmit(acl *access.Control) {
	c.mu.Lock()
	c.release()
	c.acl = acl
	deny, err := acl.AdmitHost(c.id)
	if err == nil {
		c.hostCounted = true
		var counted bool
		deny, counted, err = acl.AdmitAccount(c.id, deny)
		c.acctCounted = counted
	}
	c.deny = deny
	c.mu.Unlock()
	if err != nil {
		c.s.logf("Warning: client %s no longer allowed: %v", c.id, err)
		ctx, cancel := context.WithTimeout(context.Background(), c.s.timeout())
		_ = c.sendError(ctx, err)
		cancel()
		c.conn.Close()
	}
}

// clientAttr is one connection attribute of a client.
type clientAttr struct {
	key   pdu.AttrKey
	value string
}

// credAttrs are the attributes PCP's pmcd gives a client whose
// credentials it knows: its user, group and process ids.
// They go to agents in the order PCP's pmcd sends them: process, group,
// user.
func credAttrs(id access.ClientID) []clientAttr {
	var attrs []clientAttr
	if id.PID != 0 {
		attrs = append(attrs, clientAttr{pdu.AttrProcessID, strconv.FormatUint(uint64(id.PID), 10)})
	}
	return append(attrs,
		clientAttr{pdu.AttrGroupID, strconv.FormatUint(uint64(id.GID), 10)},
		clientAttr{pdu.AttrUserID, strconv.FormatUint(uint64(id.UID), 10)})
}

// wantsAttrs says whether an agent asked for clients' attributes.
func wantsAttrs(f pdu.Flags) bool { return f&(pdu.FlagAuth|pdu.FlagContainer) != 0 }

// sendAttrs gives the client's attributes to every live agent that asked
// for them, each as an ATTR PDU from the client, value NUL-terminated as
// PCP's pmcd sends it.
func (c *client) sendAttrs(ctx context.Context) {
	c.mu.Lock()
	attrs := c.attrs
	c.mu.Unlock()
	if len(attrs) == 0 {
		return
	}
	for _, a := range c.st.order {
		a.sendAttrs(ctx, c.num, attrs)
	}
}

// sendAttrs gives one client's attributes to the agent if it wants them.
func (a *agent) sendAttrs(ctx context.Context, from int32, attrs []clientAttr) {
	if !a.wantsAttrs.Load() {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.b == nil || a.notReady || !wantsAttrs(a.b.flags()) {
		return
	}
	for _, at := range attrs {
		if _, err := a.doLocked(ctx, from, &pdu.Attr{Key: at.key, Value: append([]byte(at.value), 0)}); err != nil {
			return
		}
	}
}

// addClient and dropClient keep the table of connected clients that
// Reload and pmcd's own agent look at.
func (s *Server) addClient(c *client) {
	s.clientsMu.Lock()
	defer s.clientsMu.Unlock()
	if s.clients == nil {
		s.clients = map[*client]struct{}{}
	}
	s.clients[c] = struct{}{}
}

func (s *Server) dropClient(c *client) {
	s.clientsMu.Lock()
	delete(s.clients, c)
	last := len(s.clients) == 0
	s.clientsMu.Unlock()
	c.mu.Lock()
	c.release()
	c.mu.Unlock()
	if last {
		s.clientsLeft()
	}
}

// clientsLeft is called when the last client has gone: memory is handed
// back if the server was asked to (FreeIdleMemory). Close stops that
// under idleFree's lock, so a client that goes during Close schedules
// nothing.
func (s *Server) clientsLeft() {
	if s.FreeIdleMemory {
		s.idleFree.clientsGone(s.noClients)
	}
}

// noClients says whether no client is connected.
func (s *Server) noClients() bool {
	s.clientsMu.Lock()
	defer s.clientsMu.Unlock()
	return len(s.clients) == 0
}

// clientList is a snapshot of the connected clients.
func (s *Server) clientList() []*client {
	s.clientsMu.Lock()
	defer s.clientsMu.Unlock()
	out := make([]*client, 0, len(s.clients))
	for c := range s.clients {
		out = append(out, c)
	}
	return out
}

// countIn and countOut count PDUs by type for pmcd.pdu_in and
// pmcd.pdu_out.
func (s *Server) countIn(t pdu.Type) {
	if i := int(t) - int(pdu.TypeError); i >= 0 && i < len(s.ctl.PDUIn) {
		s.ctl.PDUIn[i].Add(1)
	}
}

func (s *Server) countOut(t pdu.Type) {
	if i := int(t) - int(pdu.TypeError); i >= 0 && i < len(s.ctl.PDUOut) {
		s.ctl.PDUOut[i].Add(1)
	}
}

// attribute takes a connection attribute a client sends after the
// handshake. A container name is kept and forwarded to the agents that
// want attributes, as PCP's pmcd does; the SASL exchange that other
// attributes begin is not supported and ends the connection.
func (c *client) attribute(ctx context.Context, m *pdu.Attr) error {
	if m.Key != pdu.AttrContainer {
		return c.refuse(ctx, fmt.Errorf("client attribute %d: %w", m.Key, pcp.ErrIPC))
	}
	value := string(m.Value)
	if i := len(value); i > 0 && value[i-1] == 0 {
		value = value[:i-1]
	}
	c.setContainer(ctx, value)
	return nil
}

// setContainer records the client's container and tells the agents that
// want attributes.
func (c *client) setContainer(ctx context.Context, name string) {
	c.mu.Lock()
	c.attrs = append(slices.DeleteFunc(slices.Clone(c.attrs), func(a clientAttr) bool { return a.key == pdu.AttrContainer }),
		clientAttr{pdu.AttrContainer, name})
	attrs := c.attrs
	c.mu.Unlock()
	for _, a := range c.s.st().order {
		a.sendAttrs(ctx, c.num, attrs)
	}
}

// clientByNum is the connected client with number n, or nil.
func (s *Server) clientByNum(n int32) *client {
	s.clientsMu.Lock()
	defer s.clientsMu.Unlock()
	for c := range s.clients {
		if c.num == n {
			return c
		}
	}
	return nil
}
