package local

import (
	"context"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// Dup makes a new local context running new instances of the same
// agents, with the same namespace and a copy of this one's instance
// profile, as pmDupContext does.
func (c *Context) Dup(ctx context.Context) (*Context, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, fmt.Errorf("pmapi: Dup: %w", pcp.ErrNoContext)
	}
	prof := c.profile.Clone()
	table := c.table
	c.mu.Unlock()
	d, err := NewContext(ctx, WithTable(table), WithNamespace(c.ns), WithWarnings(c.warn), WithTZ(c.tz), WithCompanion(c.companion))
	if err != nil {
		return nil, fmt.Errorf("pmapi: Dup: %w", err)
	}
	d.profile = prof
	return d, nil
}

// DupSource is Dup as pmapi.Dup calls it, for a local context beneath
// another layer (pmapi.WithAnonMetrics).
func (c *Context) DupSource(ctx context.Context) (pmapi.Source, error) {
	return c.Dup(ctx)
}

// TimeZone returns this machine's time zone, as pmNewContextZone does for
// a local context (pmapi.LocalZone).
func (c *Context) TimeZone(context.Context) (string, error) {
	return pmapi.LocalZone(c.tz), nil
}
