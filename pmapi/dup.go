package pmapi

import (
	"context"
	"fmt"
	"slices"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// Dup makes a new context to the same pmcd with a copy of this one's
// instance profile, as pmDupContext does. The two are independent
// afterwards.
func (c *Context) Dup(ctx context.Context) (*Context, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, fmt.Errorf("pmapi: Dup: %w", pcp.ErrNoContext)
	}
	prof := c.profile.clone()
	c.mu.Unlock()
	conn, err := connect(ctx, c.spec, c.opts)
	if err != nil {
		return nil, fmt.Errorf("pmapi: Dup: %w", err)
	}
	d := &Context{spec: c.spec, opts: c.opts, profile: prof}
	d.attach(conn)
	return d, nil
}

// Dup makes a new local context running new instances of the same
// agents, with the same namespace and a copy of this one's instance
// profile, as pmDupContext does.
func (c *LocalContext) Dup(ctx context.Context) (*LocalContext, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, fmt.Errorf("pmapi: Dup: %w", pcp.ErrNoContext)
	}
	prof := c.profile.clone()
	table := c.table
	c.mu.Unlock()
	d, err := NewLocalContext(ctx, WithLocalAgents(table), WithNamespace(c.ns), WithWarnings(c.warn))
	if err != nil {
		return nil, fmt.Errorf("pmapi: Dup: %w", err)
	}
	d.profile = prof
	return d, nil
}

// Dup duplicates any context that can be duplicated (host and local
// contexts), as pmDupContext does; others are pcp.ErrNYI.
func Dup(ctx context.Context, src Source) (Source, error) {
	switch c := src.(type) {
	case *Context:
		return c.Dup(ctx)
	case *LocalContext:
		return c.Dup(ctx)
	case withAnon:
		d, err := Dup(ctx, c.Source)
		if err != nil {
			return nil, err
		}
		return withAnon{d}, nil
	}
	return nil, fmt.Errorf("pmapi: Dup of a %s context: %w", src.Kind(), pcp.ErrNYI)
}

// clone is a deep copy of the profile.
func (p *profile) clone() profile {
	out := profile{state: p.state, indoms: make([]pdu.InDomProfile, len(p.indoms))}
	for i, d := range p.indoms {
		d.Insts = slices.Clone(d.Insts)
		out.indoms[i] = d
	}
	return out
}
