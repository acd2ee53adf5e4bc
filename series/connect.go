package series

import (
	"context"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Connect makes a client for the servers given (host:port), as libpcp_web
// connects: a Redis Cluster when the first server reachable says it is in
// cluster mode (its other nodes found from it), else a single server.
func Connect(ctx context.Context, addrs []string) (redis.UniversalClient, error) {
	if len(addrs) == 0 {
		return nil, fmt.Errorf("%w: no servers given", ErrRedis)
	}
	var lastErr error
	for _, a := range addrs {
		c := redis.NewClient(&redis.Options{Addr: a})
		info, err := c.Info(ctx, "cluster").Result()
		c.Close()
		if err != nil {
			lastErr = err
			continue
		}
		if strings.Contains(info, "cluster_enabled:1") {
			return redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs}), nil
		}
		return redis.NewClient(&redis.Options{Addr: a}), nil
	}
	return nil, fmt.Errorf("%w: cannot connect to %s: %v", ErrRedis, strings.Join(addrs, ","), lastErr)
}
