package series

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// batch is the commands of one pipelined round trip. Its size bounds the
// loader's memory: a batch is sent once it holds maxCmds commands.
type batch struct {
	cmds    [][]any
	expire  map[string]bool // streams written in this batch
	streams int             // XADDs in cmds
}

func (b *batch) add(args ...any) { b.cmds = append(b.cmds, args) }

// Errors a load reports.
var (
	// ErrSchema is an incompatible pcp:version:schema in Redis.
	ErrSchema = errors.New("unsupported series schema")
	// ErrRedis wraps a failure talking to Redis: down, restarted, out of
	// memory. A load that ends with it can be run again: what it wrote is
	// kept and nothing is written twice.
	ErrRedis = errors.New("redis")
)

// isStreamDup is Redis refusing a stream entry no newer than the stream's
// last: the value is already there (a load run again) or older than what
// is (archives loaded out of time order).
func isStreamDup(err error) bool {
	return err != nil && strings.Contains(err.Error(), "equal or smaller than the target stream top item")
}

// send runs b's commands as one pipeline, then an EXPIRE per stream
// written. It returns how many stream entries Redis refused as not newer.
func send(ctx context.Context, c redis.UniversalClient, b *batch, expire int64) (dups int, err error) {
	if len(b.cmds) == 0 {
		return 0, nil
	}
	p := c.Pipeline()
	res := make([]*redis.Cmd, 0, len(b.cmds))
	for _, a := range b.cmds {
		res = append(res, p.Do(ctx, a...))
	}
	if expire > 0 {
		for k := range b.expire {
			p.Expire(ctx, k, time.Duration(expire)*time.Second)
		}
	}
	_, perr := p.Exec(ctx)
	for i, r := range res {
		e := r.Err()
		if e == nil {
			continue
		}
		if isStreamDup(e) {
			dups++
			continue
		}
		if isRedisUnavailable(e) {
			return dups, fmt.Errorf("%w: %v", ErrRedis, e)
		}
		return dups, fmt.Errorf("%w: %s %s: %v", ErrRedis, b.cmds[i][0], key(b.cmds[i]), e)
	}
	if perr != nil && !isStreamDup(perr) {
		return dups, fmt.Errorf("%w: %v", ErrRedis, perr)
	}
	return dups, nil
}

func key(a []any) any {
	if len(a) > 1 {
		return a[1]
	}
	return ""
}

func isRedisUnavailable(err error) bool {
	var ne interface{ Timeout() bool }
	return errors.As(err, &ne) || strings.Contains(err.Error(), "connection refused") ||
		strings.Contains(err.Error(), "EOF") || strings.Contains(err.Error(), "broken pipe") ||
		strings.Contains(err.Error(), "connection reset")
}
