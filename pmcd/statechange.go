package pmcd

import (
	"context"

	"github.com/gopcp/gopcp/pdu"
)

// Agents tell pmcd of changes to their metadata (names, labels) in the
// timestamp of a fetch's answer, which they otherwise leave zero for
// pmcd to fill in: libpcp_pmda puts the PMCD_* bits in its seconds. PCP
// 6.0.3's pmcd takes the timestamp's first byte from every agent's
// answer, in-process or daemon alike, marks every connected client, and
// tells each one with its next fetch, in an ERROR PDU carrying the bits
// as a positive code just before the RESULT; libpcp's pmFetch returns
// them.

// agentChanges is the state-change bits of an agent's fetch answer
// whose timestamp has sec seconds.
func agentChanges(sec int64) uint32 {
	// The first byte of the timestamp on a little-endian host: the low
	// byte of the seconds.
	return uint32(uint8(sec))
}

// markChanges records changes for every connected client, as pmcd's
// MarkStateChanges does.
func (s *Server) markChanges(changes uint32) {
	if changes == 0 {
		return
	}
	s.clientsMu.Lock()
	defer s.clientsMu.Unlock()
	for c := range s.clients {
		c.changes.Or(changes)
	}
}

// sendChanges sends the ERROR PDU announcing the client's pending
// changes, if there are any, and forgets them.
func (c *client) sendChanges(ctx context.Context) error {
	if c.changes.Load() == 0 {
		return nil
	}
	ch := c.changes.Swap(0)
	if ch == 0 {
		return nil
	}
	// Its own buffer: a fetch's answer may be in c.out already, encoded
	// while the agent's lock was held (fetchEncoded).
	m := pdu.Error{Code: int32(ch)}
	c.notice = m.Append(c.notice[:0], 0)
	return c.write(ctx, c.notice)
}
