package pmapi

import (
	"context"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
)

// Dup makes a new context to the same pmcd with a copy of this one's
// instance profile, as pmDupContext does. The two are independent
// afterwards.
func (c *HostContext) Dup(ctx context.Context) (*HostContext, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, fmt.Errorf("pmapi: Dup: %w", pcp.ErrNoContext)
	}
	prof := c.profile.Clone()
	c.mu.Unlock()
	conn, err := connect(ctx, c.spec, c.opts)
	if err != nil {
		return nil, fmt.Errorf("pmapi: Dup: %w", err)
	}
	d := &HostContext{spec: c.spec, opts: c.opts, profile: prof}
	d.attach(conn)
	return d, nil
}

// Dup duplicates any context that can be duplicated (host contexts, and
// those of other packages with a DupSource method such as pmapi/local's),
// as pmDupContext does; others are pcp.ErrNYI.
func Dup(ctx context.Context, src Source) (Source, error) {
	switch c := src.(type) {
	case *HostContext:
		return c.Dup(ctx)
	case interface {
		DupSource(context.Context) (Source, error)
	}:
		return c.DupSource(ctx)
	case withAnon:
		d, err := Dup(ctx, c.Source)
		if err != nil {
			return nil, err
		}
		return withAnon{d}, nil
	}
	return nil, fmt.Errorf("pmapi: Dup of a %s context: %w", src.Kind(), pcp.ErrNYI)
}
