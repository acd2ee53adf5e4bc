package resp

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"time"
)

// Options are a client's settings. A zero field takes its default.
type Options struct {
	// Username and Password are sent with AUTH on every new connection
	// when Password is set: "AUTH password" without a username (Redis's
	// default user), "AUTH username password" with one, as libpcp_web's
	// client sends them. A username without a password sends nothing.
	Username, Password string
	// DialTimeout bounds a connection's dial and AUTH (default 5 s,
	// libpcp_web's connection timeout).
	DialTimeout time.Duration
	// Timeout bounds a call when its context has no sooner deadline
	// (default DefaultTimeout).
	Timeout time.Duration
	// MaxConns bounds a Pool's connections at once, each node's in a
	// Cluster (default 16); a call beyond it waits for one, within its
	// context.
	MaxConns int
	// MaxIdle bounds the connections a Pool keeps open between calls
	// (default 4).
	MaxIdle int
	// MaxRedirects bounds how often a Cluster follows MOVED, ASK,
	// TRYAGAIN, CLUSTERDOWN or a failed node for one command (default 8).
	MaxRedirects int
	// Limits bound each reply.
	Limits Limits
	// NoResend keeps a Pool from sending a call again on a new
	// connection when the kept one it used turns out closed: the call
	// fails, as libpcp_web's does.
	NoResend bool
}

// DefaultTimeout is a call's bound when Options give none: libpcp_web's
// command timeout (PCP 6.0.3's pmseries sets none and waits for ever).
const DefaultTimeout = 60 * time.Second

func (o Options) withDefaults() Options {
	if o.DialTimeout <= 0 {
		o.DialTimeout = 5 * time.Second
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxConns <= 0 {
		o.MaxConns = 16
	}
	if o.MaxIdle <= 0 {
		o.MaxIdle = 4
	}
	if o.MaxIdle > o.MaxConns {
		o.MaxIdle = o.MaxConns
	}
	if o.MaxRedirects <= 0 {
		o.MaxRedirects = 8
	}
	o.Limits = o.Limits.withDefaults()
	return o
}

// outFlush is how much of a pipeline is encoded before it is written.
const outFlush = 256 << 10

// Conn is one connection to a server. It is not safe for use by several
// goroutines at once.
type Conn struct {
	addr string
	opt  Options
	nc   net.Conn
	rd   *Reader
	out  []byte
	// broken is set when a call failed part way: what the stream holds
	// is unknown, so the connection is not used again
	broken bool
}

// Dial connects to addr (host:port) and authenticates as opt says.
func Dial(ctx context.Context, addr string, opt Options) (*Conn, error) {
	opt = opt.withDefaults()
	dctx, cancel := context.WithTimeout(ctx, opt.DialTimeout)
	defer cancel()
	var d net.Dialer
	nc, err := d.DialContext(dctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	c := &Conn{addr: addr, opt: opt, nc: nc, rd: NewReader(bufio.NewReaderSize(nc, 64<<10), opt.Limits)}
	if opt.Password != "" {
		args := []string{"AUTH", opt.Password}
		if opt.Username != "" {
			args = []string{"AUTH", opt.Username, opt.Password}
		}
		if _, err := c.Do(dctx, args...); err != nil {
			c.Close()
			return nil, fmt.Errorf("AUTH to %s: %w", addr, err)
		}
	}
	return c, nil
}

// Addr is the server's host:port as dialled.
func (c *Conn) Addr() string { return c.addr }

// NetConn is the connection underneath, for a caller that writes
// requests of its own (the series loader's pipelines).
func (c *Conn) NetConn() net.Conn { return c.nc }

// Reader decodes the connection's replies.
func (c *Conn) Reader() *Reader { return c.rd }

// Close closes the connection.
func (c *Conn) Close() error {
	c.broken = true
	return c.nc.Close()
}

// Broken says whether a call failed part way, leaving the connection
// unusable.
func (c *Conn) Broken() bool { return c.broken }

// Deadline bounds the connection's reads and writes by d and ctx's
// deadline, whichever is sooner; cancelling ctx ends them at once. The
// function returned stops watching ctx (call it when the exchange ends);
// it reports false, and the connection is closed, when ctx ended as the
// exchange did.
func (c *Conn) Deadline(ctx context.Context, d time.Duration) func() bool {
	deadline := time.Now().Add(d)
	if cd, ok := ctx.Deadline(); ok && cd.Before(deadline) {
		deadline = cd
	}
	nc := c.nc
	nc.SetDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { nc.SetDeadline(time.Unix(1, 0)) })
	return func() bool {
		if stop() {
			return true
		}
		// The deadline in the past set on ctx's end may land after the
		// next exchange has set its own, failing a call that had nothing
		// to do with this one: the connection is not used again.
		c.Close()
		return false
	}
}

// Do sends one command and reads its reply. An error reply is returned
// both as the Value and as an *Error.
func (c *Conn) Do(ctx context.Context, args ...string) (Value, error) {
	vs, err := c.Pipeline(ctx, [][]string{args})
	if err != nil {
		return Value{}, err
	}
	return vs[0], vs[0].Err()
}

// Pipeline sends cmds together and reads their replies, one for each
// command; error replies are among them as Values of KindError. The error
// is for the connection failing (the connection is then broken).
func (c *Conn) Pipeline(ctx context.Context, cmds [][]string) ([]Value, error) {
	if c.broken {
		return nil, net.ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	defer c.Deadline(ctx, c.opt.Timeout)()
	out := c.out[:0]
	for _, a := range cmds {
		out = AppendCommand(out, a...)
		if len(out) >= outFlush {
			if _, err := c.nc.Write(out); err != nil {
				return nil, c.fail(ctx, err)
			}
			out = out[:0]
		}
	}
	if len(out) > 0 {
		if _, err := c.nc.Write(out); err != nil {
			return nil, c.fail(ctx, err)
		}
	}
	if cap(out) <= 4*outFlush { // one enormous argument's room is not kept
		c.out = out[:0]
	}
	vs := make([]Value, len(cmds))
	for i := range vs {
		v, err := c.rd.Read()
		if err != nil {
			return nil, c.fail(ctx, err)
		}
		vs[i] = v
	}
	return vs, nil
}

// fail breaks the connection after an I/O or protocol error; an error
// caused by ctx ending is said as ctx's.
func (c *Conn) fail(ctx context.Context, err error) error {
	c.Close()
	if ctx.Err() != nil {
		return fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	return err
}
