package series

import (
	"context"
	"sync"

	"github.com/gopcp/gopcp/series/resp"
)

// StopWhenLost is c as libpcp_web uses its connection: once a command
// has had no reply (the connection closed or reset, or what came was
// no reply), nothing more is sent. Each later call fails at once with a
// *SlotsError in libpcp_web's words, naming the command it could not
// send ("redisSlotsRequestFirstNode: Server closed the connection
// (<the command in RESP>)"). A call ended by its context is no loss.
// The Pool under it should not send again either (Options.NoResend).
func StopWhenLost(c resp.Client) resp.Client { return &lostGuard{Client: c} }

type lostGuard struct {
	resp.Client
	mu   sync.Mutex
	lost string // hiredis' words for how the connection was lost
}

func (g *lostGuard) Do(ctx context.Context, args ...string) (resp.Value, error) {
	if why := g.lostWhy(); why != "" {
		return resp.Value{}, cannotSend(why, args)
	}
	v, err := g.Client.Do(ctx, args...)
	g.note(ctx, err)
	return v, err
}

func (g *lostGuard) Pipeline(ctx context.Context, cmds [][]string) ([]resp.Value, error) {
	if why := g.lostWhy(); why != "" && len(cmds) > 0 {
		return nil, cannotSend(why, cmds[0])
	}
	vs, err := g.Client.Pipeline(ctx, cmds)
	g.note(ctx, err)
	return vs, err
}

func (g *lostGuard) lostWhy() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.lost
}

// note records err when it left a command with no reply.
func (g *lostGuard) note(ctx context.Context, err error) {
	if why := noReply(err); why != "" && ctx.Err() == nil {
		g.mu.Lock()
		if g.lost == "" {
			g.lost = why
		}
		g.mu.Unlock()
	}
}
