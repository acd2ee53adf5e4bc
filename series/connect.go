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
		c, err := resp.Dial(ctx, a, opt)
		if err != nil {
			lastErr = err
			continue
		}
		r, err := c.Do(ctx, "INFO", "cluster")
		c.Close()
		if err != nil {
			lastErr = err
			continue
		}
		if info, _ := r.Text(); strings.Contains(info, "cluster_enabled:1") {
			return resp.NewCluster(addrs, opt), nil
		}
		return resp.NewPool(a, opt), nil
	}
	return nil, fmt.Errorf("%w: cannot connect to %s: %v", ErrRedis, strings.Join(addrs, ","), lastErr)
}
