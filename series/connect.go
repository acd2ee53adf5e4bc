package series

import (
	"context"
	"fmt"
	"strings"

	"github.com/gopcp/gopcp/series/resp"
)

// Connect makes a client for the servers given (host:port), as libpcp_web
// connects: it asks the first server that answers for its cluster nodes
// (CLUSTER NODES, hiredis-cluster's question); a server that says it has
// no cluster support is used alone, one that lists its nodes makes a
// Redis Cluster client (its nodes found from it). opt carries the
// credentials (Config.RedisOptions) and bounds.
//
// An answer that is neither (another error reply, a reply of another
// type, a node list that cannot be read) is a *NoRedisError, which
// Unreachable says in libpcp_web's words; several servers of which none
// is in cluster mode, or a node list naming no node, is a *SlotsError.
func Connect(ctx context.Context, addrs []string, opt resp.Options) (resp.Client, error) {
	if len(addrs) == 0 {
		return nil, fmt.Errorf("%w: no servers given", ErrRedis)
	}
	var lastErr error
	for _, a := range addrs {
		// The question has a connection of its own, closed after
		// it, as hiredis-cluster asks it: a server sees it alone.
		r, err := clusterNodes(ctx, a, opt)
		if err != nil && r.Kind != resp.KindError {
			lastErr = err
			continue
		}
		if r.Kind == resp.KindError && r.Str == errNoCluster {
			if distinct(addrs) > 1 {
				return nil, &SlotsError{"redisSlotsReconnect: more than one node is configured, but cluster mode is disabled"}
			}
			return resp.NewPool(a, opt), nil
		}
		if err := clusterNodesRefusal(r); err != nil {
			return nil, err
		}
		return resp.NewCluster(addrs, opt), nil
	}
	return nil, fmt.Errorf("%w: cannot connect to %s: %w", ErrRedis, strings.Join(addrs, ","), lastErr)
}

// clusterNodes asks the server at addr for its cluster nodes.
func clusterNodes(ctx context.Context, addr string, opt resp.Options) (resp.Value, error) {
	c, err := resp.Dial(ctx, addr, opt)
	if err != nil {
		return resp.Value{}, err
	}
	defer c.Close()
	return c.Do(ctx, "CLUSTER", "NODES")
}

// errNoCluster is Redis's answer to CLUSTER NODES outside cluster mode.
const errNoCluster = "ERR This instance has cluster support disabled"

// distinct is how many different servers addrs names: hiredis-cluster
// keeps its nodes by address, a server named twice being one node.
func distinct(addrs []string) int {
	seen := map[string]bool{}
	for _, a := range addrs {
		seen[a] = true
	}
	return len(seen)
}

// clusterNodesRefusal is why a reply to CLUSTER NODES, other than the
// refusal of a server without cluster support, gives no cluster to
// work with, nil when it lists nodes. Only its lines are looked at (each
// must have a node's eight fields at least); the cluster's slots are
// asked for again, by resp.Cluster.
func clusterNodesRefusal(r resp.Value) error {
	switch r.Kind {
	case resp.KindError:
		return &NoRedisError{r.Str}
	case resp.KindBulk:
	default:
		return &NoRedisError{"Command(cluster nodes) reply error: type is not string."}
	}
	lines := strings.Split(r.Str, "\n")
	// text after the last newline is no line
	lines = lines[:len(lines)-1]
	if len(lines) == 0 {
		return &SlotsError{"redisSlotsRequestFirstNode: No Redis node configured."}
	}
	for _, l := range lines {
		if len(strings.Split(strings.TrimSuffix(l, "\r"), " ")) < 8 {
			return &NoRedisError{"split cluster nodes error"}
		}
	}
	return nil
}

// NoRedisError is a server that answered the question of its cluster
// nodes so that libpcp_web finds no Redis there: Why is its words for
// the "Cannot connect to Redis" line.
type NoRedisError struct{ Why string }

func (e *NoRedisError) Error() string { return "cannot connect to Redis: " + e.Why }

// Unwrap makes it a failure talking to Redis.
func (e *NoRedisError) Unwrap() error { return ErrRedis }

// SlotsError is a set of servers libpcp_web will not use, in its words:
// several named where none is in cluster mode, or a node list naming
// none. PCP's pmseries notes it at the Error level and exits 0, having
// done nothing.
type SlotsError struct{ Msg string }

func (e *SlotsError) Error() string { return e.Msg }

// Unwrap makes it a failure talking to Redis.
func (e *SlotsError) Unwrap() error { return ErrRedis }
