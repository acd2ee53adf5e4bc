package series

import (
	"context"
	"errors"
	"strings"

	"github.com/gopcp/gopcp/series/resp"
)

// The loader writes to a Redis Cluster as to one server, in RESP of its
// own on a connection a node, each command sent to the node that holds its
// key's slot in the table CLUSTER SLOTS gave at the start. A node that
// answers MOVED or ASK (slots moved during the load), TRYAGAIN or
// CLUSTERDOWN makes the load go on through resp.Cluster, which follows the
// cluster as it changes, from the batches Redis has not answered: every
// write of a load may be sent twice.

// clusterRoutes makes a connection for each node that owns slots and a
// route from a key to the connection of its node. ok is false when the
// table does not cover every slot.
func clusterRoutes(ctx context.Context, c *resp.Cluster) (raw []*rawConn, route func(string) int, ok bool) {
	slots, err := c.Slots(ctx)
	if err != nil {
		return nil, nil, false
	}
	var owner [resp.Slots]int16
	for i := range owner {
		owner[i] = -1
	}
	node := map[string]int16{}
	for _, s := range slots {
		addr := s.Addr // the master
		n, seen := node[addr]
		if !seen {
			n = int16(len(raw))
			node[addr] = n
			raw = append(raw, &rawConn{addr: addr, opt: c.Options()})
		}
		for i := s.Start; i <= s.End; i++ {
			owner[i] = n
		}
	}
	for _, n := range owner {
		if n < 0 {
			return nil, nil, false
		}
	}
	return raw, func(k string) int { return int(owner[resp.KeySlot(k)]) }, true
}

// isRedirect is a node's answer that the cluster is not as the loader's
// table has it.
func isRedirect(err error) bool {
	var re replyError
	if !errors.As(err, &re) {
		return false
	}
	for _, p := range []string{"MOVED ", "ASK ", "TRYAGAIN", "CLUSTERDOWN"} {
		if strings.HasPrefix(re.msg, p) {
			return true
		}
	}
	return false
}
