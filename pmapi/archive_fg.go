package pmapi

import (
	"context"
	"fmt"
)

// AtEnd runs f with the context positioned at the end of its archives,
// reading backwards, and then puts back the time, mode and interpolation
// step it had, as libpcp's fetchgroups do to find metrics and instances
// an archive defines only after the current time. It returns f's error,
// else the error of putting the context back. Package fetchgroup uses it
// through its EndVisitor interface.
func (c *ArchiveContext) AtEnd(ctx context.Context, f func() error) error {
	end, err := c.End()
	if err != nil {
		return fmt.Errorf("pmapi: archive end: %w", err)
	}
	c.mu.Lock()
	mode, origin, delta := c.mode, c.origin, c.delta
	c.mu.Unlock()
	if err := c.SetMode(ModeBack, end, 0); err != nil {
		return err
	}
	ferr := f()
	if err := c.SetMode(mode, origin, delta); ferr == nil {
		ferr = err
	}
	return ferr
}
