package series

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/gopcp/gopcp/series/resp"
)

// batch is the commands of one pipelined round trip. Its size bounds the
// loader's memory: a batch is sent once it holds maxCmds commands.
type batch struct {
	cmds    [][]string
	streams []*streamState // streams written in this batch
	pos     position       // following: the place after this batch's last record
	blocks  [][]byte       // the arena blocks its encoded commands were cut from

	// SADDs and HSETs of shared keys gathered into one command a key
	// (sent at the batch's end): the series of a context or of an
	// instance name, the maps of names
	groups   map[string]*group
	order    []*group
	gathered int
}

type group struct {
	cmd, key string
	args     []string
}

func (b *batch) add(args ...string) { b.cmds = append(b.cmds, args) }

// gather adds args to the batch's one cmd of key.
func (b *batch) gather(cmd, key string, args ...string) {
	if b.groups == nil {
		b.groups = map[string]*group{}
	}
	g := b.groups[key]
	if g == nil {
		g = &group{cmd: cmd, key: key}
		b.groups[key] = g
		b.order = append(b.order, g)
	}
	g.args = append(g.args, args...)
	b.gathered += len(args)
}

// size is the commands the batch holds, each argument gathered counted as
// one (a command each before they were gathered): the measure of when it
// is full.
func (b *batch) size() int { return len(b.cmds) + b.gathered }

// close turns the gathered arguments into commands.
func (b *batch) close() {
	for _, g := range b.order {
		a := make([]string, 0, 2+len(g.args))
		b.add(append(append(a, g.cmd, g.key), g.args...)...)
	}
	b.groups, b.order, b.gathered = nil, nil, 0
}

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
	return err != nil && isStreamDupText(err.Error())
}

func isStreamDupText(s string) bool {
	return strings.Contains(s, "equal or smaller than the target stream top item")
}

// send runs b's commands through the client as shards pipelines side by
// side on as many connections, a key's commands all in one of them and in
// order (so a stream's entries arrive in time order and a later write to
// a key stays later). It returns how many stream entries Redis refused as
// not newer.
func send(ctx context.Context, c resp.Client, b *batch, shards int) (int, error) {
	if len(b.cmds) == 0 {
		return 0, nil
	}
	if shards < 1 {
		shards = 1
	}
	parts := split(b, shards, func(k string) int { return shardOf(k, shards) })
	dups := make([]int, shards)
	errs := make([]error, shards)
	var wg sync.WaitGroup
	for i, cmds := range parts {
		if len(cmds) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			dups[i], errs[i] = sendPipeline(ctx, c, cmds)
		}()
	}
	wg.Wait()
	n := 0
	for i := range dups {
		n += dups[i]
	}
	for _, err := range errs {
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// split is b's commands by connection (route gives a key's), a key's all
// on one.
func split(b *batch, shards int, route func(string) int) [][][]string {
	parts := make([][][]string, shards)
	for _, a := range b.cmds {
		i := route(key(a))
		parts[i] = append(parts[i], a)
	}
	return parts
}

// stepAll runs a step on every connection side by side: next written,
// then the replies to prev (the parts of the batch written before) read.
func stepAll(ctx context.Context, raw []*rawConn, prev, next [][][]string) (int, error) {
	dups := make([]int, len(raw))
	errs := make([]error, len(raw))
	var wg sync.WaitGroup
	for i, rc := range raw {
		var p, n [][]string
		if prev != nil {
			p = prev[i]
		}
		if next != nil {
			n = next[i]
		}
		if len(p) == 0 && len(n) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			dups[i], errs[i] = rc.step(ctx, p, n)
		}()
	}
	wg.Wait()
	n := 0
	for _, d := range dups {
		n += d
	}
	for _, err := range errs {
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

func shardOf(k string, n int) int {
	if n == 1 {
		return 0
	}
	// FNV-1a, inline: hash/fnv's interface cost an allocation a command
	h := uint32(2166136261)
	for i := 0; i < len(k); i++ {
		h ^= uint32(k[i])
		h *= 16777619
	}
	return int(h % uint32(n))
}

func sendPipeline(ctx context.Context, c resp.Client, cmds [][]string) (dups int, err error) {
	args := make([][]string, len(cmds))
	for i, a := range cmds {
		args[i] = a
		if a[0] == encodedXADD {
			if args[i], err = decodeCommand(a[2]); err != nil {
				return 0, err
			}
		}
	}
	res, err := c.Pipeline(ctx, args)
	if err != nil {
		return 0, fmt.Errorf("%w: %v", ErrRedis, err)
	}
	for i, r := range res {
		if r.Kind != resp.KindError {
			continue
		}
		if isStreamDupText(r.Str) {
			dups++
			continue
		}
		return dups, fmt.Errorf("%w: %s %s: %v", ErrRedis, cmdName(cmds[i]), key(cmds[i]), r.Str)
	}
	return dups, nil
}

func key(a []string) string {
	if len(a) > 1 {
		return a[1]
	}
	return ""
}
