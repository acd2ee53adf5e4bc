package series

import (
	"context"
	"fmt"
	"strings"

	"github.com/gopcp/gopcp/series/resp"
)

// Connect makes a client for the servers given (host:port), as libpcp_web
// connects: a Redis Cluster when the first server reachable says it is in
// cluster mode (its other nodes found from it), else a single server.
// opt carries the credentials (Config.RedisOptions) and bounds.
func Connect(ctx context.Context, addrs []string, opt resp.Options) (resp.Client, error) {
	if len(addrs) == 0 {
		return nil, fmt.Errorf("%w: no servers given", ErrRedis)
	}
	var lastErr error
	for _, a := range addrs {
		// The question goes through the pool a single server is
		// answered with: its connection is kept for the first
		// command, not dialled again.
		p := resp.NewPool(a, opt)
		r, err := p.Do(ctx, "INFO", "cluster")
		if err != nil {
			p.Close()
			lastErr = err
			continue
		}
		if info, _ := r.Text(); strings.Contains(info, "cluster_enabled:1") {
			p.Close()
			return resp.NewCluster(addrs, opt), nil
		}
		return p, nil
	}
	return nil, fmt.Errorf("%w: cannot connect to %s: %w", ErrRedis, strings.Join(addrs, ","), lastErr)
}
