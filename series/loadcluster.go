package series

import (
	"context"
	"errors"
	"strings"

	"github.com/redis/go-redis/v9"
)

// The loader writes to a Redis Cluster as to one server, in RESP of its
// own on a connection a node, each command sent to the node that holds its
// key's slot in the table CLUSTER SLOTS gave at the start. go-redis's
// cluster pipelines cost the loader twice its CPU. A node that answers
// MOVED or ASK (slots moved during the load), TRYAGAIN or CLUSTERDOWN
// makes the load go on through go-redis, which follows the cluster as it
// changes, from the batches Redis has not answered: every write of a load
// may be sent twice.

// clusterSlots is the number of hash slots of a Redis Cluster.
const clusterSlots = 16384

// plainCluster is a cluster client with nothing to negotiate (go-redis
// sets NewClient itself when it is not given).
func plainCluster(o *redis.ClusterOptions) bool {
	return o.Password == "" && o.Username == "" && o.TLSConfig == nil && o.CredentialsProvider == nil &&
		o.CredentialsProviderContext == nil && o.Dialer == nil
}

// clusterRoutes makes a connection for each node that owns slots and a
// route from a key to the connection of its node. ok is false when the
// table does not cover every slot.
func clusterRoutes(ctx context.Context, c *redis.ClusterClient) (raw []*rawConn, route func(string) int, ok bool) {
	slots, err := c.ClusterSlots(ctx).Result()
	if err != nil {
		return nil, nil, false
	}
	var owner [clusterSlots]int16
	for i := range owner {
		owner[i] = -1
	}
	node := map[string]int16{}
	for _, s := range slots {
		if len(s.Nodes) == 0 || s.Start < 0 || s.End >= clusterSlots || s.Start > s.End {
			return nil, nil, false
		}
		addr := s.Nodes[0].Addr // the master
		n, seen := node[addr]
		if !seen {
			n = int16(len(raw))
			node[addr] = n
			raw = append(raw, &rawConn{addr: addr})
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
	return raw, func(k string) int { return int(owner[keySlot(k)]) }, true
}

// keySlot is a key's hash slot: CRC16 (XMODEM) of the key, or of its hash
// tag (what lies between the first "{" and the next "}", when not empty).
func keySlot(k string) int {
	if i := strings.IndexByte(k, '{'); i >= 0 {
		if j := strings.IndexByte(k[i+1:], '}'); j > 0 {
			k = k[i+1 : i+1+j]
		}
	}
	return int(crc16(k) % clusterSlots)
}

var crc16Table = func() (t [256]uint16) {
	for i := range t {
		c := uint16(i) << 8
		for range 8 {
			if c&0x8000 != 0 {
				c = c<<1 ^ 0x1021
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return t
}()

func crc16(s string) uint16 {
	var c uint16
	for i := 0; i < len(s); i++ {
		c = c<<8 ^ crc16Table[byte(c>>8)^s[i]]
	}
	return c
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
