package pmapi

import (
	"context"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// WithTraverseTimeout sets the wait for the reply to a namespace
// traversal (Traverse) apart from WithRequestTimeout's. libpcp reads
// that reply with PMCD_REQUEST_TIMEOUT's exact value, where its other
// requests wait only its whole seconds (none at all below one second),
// so a value such as 0.5 limits Traverse alone (internal/pmapienv gives
// both). Zero here is a zero wait, not "no limit": the reply is not
// waited for and Traverse fails with pcp.ErrTimeout, as libpcp's does
// with PMCD_REQUEST_TIMEOUT=0. Without this option Traverse waits as
// every request does.
func WithTraverseTimeout(d time.Duration) Option {
	return func(o *options) { o.traverseWait = &d }
}

// traverseCall is call with WithTraverseTimeout's wait for the reply.
// The caller holds mu.
func (c *HostContext) traverseCall(ctx context.Context, req, resp pdu.Message) error {
	w := c.opts.traverseWait
	if w == nil {
		return c.call(ctx, req, resp)
	}
	if *w <= 0 {
		if err := c.send(ctx, req); err != nil {
			return err
		}
		// As libpcp, do not wait at all; the reply is left for
		// skipUnread, so the connection stays up (further traversals
		// fail the same way, as libpcp's do).
		c.unread++
		return pcp.ErrTimeout
	}
	// The reader's deadline is re-armed from Timeout on each read, so
	// the changed wait holds for this reply only.
	saved := c.r.Timeout
	c.r.Timeout = *w
	defer func() {
		if c.r != nil {
			c.r.Timeout = saved
		}
	}()
	return c.call(ctx, req, resp)
}

// skipUnread reads and drops the replies zero-wait traversals left,
// before the next reply is read. libpcp would take the first of them
// for the next request's reply and fail it with PM_ERR_IPC; skipping
// them keeps the stream in step instead. The caller holds mu.
func (c *HostContext) skipUnread(ctx context.Context) error {
	for c.unread > 0 {
		if _, err := c.r.ReadPDU(ctx); err != nil {
			c.broken()
			return transportError(err)
		}
		c.unread--
	}
	return nil
}
