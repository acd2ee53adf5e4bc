package resp

import (
	"context"
	"errors"
	"io"
	"net"
	"sync"
)

// Client is what the series code asks of Redis: a Pool or a Cluster.
type Client interface {
	// Do sends one command and reads its reply; an error reply is
	// returned both as the Value and as an *Error.
	Do(ctx context.Context, args ...string) (Value, error)
	// Pipeline sends cmds and reads a reply for each (error replies
	// among them); the error is for the connection failing.
	Pipeline(ctx context.Context, cmds [][]string) ([]Value, error)
	// Close closes the client's connections; calls after it fail.
	Close() error
}

// Pool is a client of one server: a bounded set of connections, each
// used by one call at a time, some kept open between calls.
type Pool struct {
	addr  string
	opt   Options
	slots chan struct{} // a token for each connection in use or idle
	mu    sync.Mutex
	idle  []*Conn
	done  bool
}

// NewPool makes a client of the server at addr (host:port). Nothing is
// dialled until the first call.
func NewPool(addr string, opt Options) *Pool {
	opt = opt.withDefaults()
	return &Pool{addr: addr, opt: opt, slots: make(chan struct{}, opt.MaxConns)}
}

// Addr is the server's host:port.
func (p *Pool) Addr() string { return p.addr }

// Options are the pool's settings, defaults filled in.
func (p *Pool) Options() Options { return p.opt }

// get takes an idle connection, or dials one when fewer than MaxConns
// are open; reused says which.
func (p *Pool) get(ctx context.Context) (c *Conn, reused bool, err error) {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
	p.mu.Lock()
	if p.done {
		p.mu.Unlock()
		<-p.slots
		return nil, false, ErrClosed
	}
	if n := len(p.idle); n > 0 {
		c = p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return c, true, nil
	}
	p.mu.Unlock()
	c, err = Dial(ctx, p.addr, p.opt)
	if err != nil {
		<-p.slots
		return nil, false, err
	}
	return c, false, nil
}

// put returns c after a call: kept when sound and there is room.
func (p *Pool) put(c *Conn) {
	p.mu.Lock()
	if c.broken || p.done || len(p.idle) >= p.opt.MaxIdle {
		p.mu.Unlock()
		c.Close()
	} else {
		p.idle = append(p.idle, c)
		p.mu.Unlock()
	}
	<-p.slots
}

// Do sends one command and reads its reply.
func (p *Pool) Do(ctx context.Context, args ...string) (Value, error) {
	vs, err := p.Pipeline(ctx, [][]string{args})
	if err != nil {
		return Value{}, err
	}
	return vs[0], vs[0].Err()
}

// Pipeline sends cmds on one connection and reads their replies. A
// connection kept from before that turns out closed (the server
// restarted meanwhile) is replaced by a new one once, unless
// Options.NoResend.
func (p *Pool) Pipeline(ctx context.Context, cmds [][]string) ([]Value, error) {
	for try := 0; ; try++ {
		c, reused, err := p.get(ctx)
		if err != nil {
			return nil, err
		}
		vs, err := c.Pipeline(ctx, cmds)
		p.put(c)
		if err != nil && reused && try == 0 && ctx.Err() == nil && stale(err) && !p.opt.NoResend {
			continue
		}
		return vs, err
	}
}

// stale is an error of a connection the server closed while it was idle.
func stale(err error) bool {
	var op *net.OpError
	return errors.Is(err, net.ErrClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &op) && !op.Timeout()
}

// Close closes the idle connections; those in use close when their call
// ends.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.done = true
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, c := range idle {
		c.Close()
	}
	return nil
}
