package pmapi

import (
	"context"
	"errors"
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

// maxUnread bounds the replies left owed by traversals that did not wait
// for them (or whose wait ran out): before one more would be owed, those
// are read and dropped. libpcp never reads them, so a program repeating
// zero-wait traversals with no other request fills the socket's buffers
// until pmcd blocks writing to it.
const maxUnread = 16

// traverseCall is call with WithTraverseTimeout's wait for the reply.
// The caller holds mu.
func (c *HostContext) traverseCall(ctx context.Context, req, resp pdu.Message) error {
	w := c.opts.traverseWait
	if w == nil {
		return c.call(ctx, req, resp)
	}
	if c.unread >= maxUnread {
		if err := c.skipUnread(ctx); err != nil {
			return err
		}
	}
	if *w <= 0 {
		if err := c.send(ctx, req); err != nil {
			return err
		}
		// As libpcp, do not wait at all; the reply is owed (skipUnread),
		// so the connection stays up (further traversals fail the same
		// way, as libpcp's do).
		c.unread++
		return pcp.ErrTimeout
	}
	// The reader's deadline is re-armed from Timeout on each read, so
	// the changed wait holds for this call's reads only: the replies
	// still owed (libpcp would take the first of them for this one's),
	// then this one's, each within w as libpcp reads its one.
	saved := c.r.Timeout
	c.r.Timeout = *w
	defer func() {
		if c.r != nil {
			c.r.Timeout = saved
		}
	}()
	return c.call(ctx, req, resp)
}

// skipUnread reads and drops the replies owed, those of requests whose
// wait ran out or that did not wait (zero-wait traversals), before the
// next reply is read. libpcp would take the first of them for the next
// request's reply (and fail it with PM_ERR_IPC, or worse take a stale
// fetch's values); skipping them keeps the stream in step instead. A
// state change notice (an ERROR PDU with a positive code, which pmcd
// sends before a fetch's result) is not a reply of its own. A wait that
// runs out before the next owed reply begins leaves the connection up;
// any other failure drops it. The caller holds mu.
func (c *HostContext) skipUnread(ctx context.Context) error {
	if c.unread == 0 {
		return nil
	}
	// nothing of what is dropped is kept (readbuf.go)
	defer c.releaseReply()
	defer c.rb.release()
	for c.unread > 0 {
		before := c.rb.taken
		buf, err := c.r.ReadPDU(ctx)
		if err != nil {
			if !c.missedWait(err, before) {
				c.broken()
			}
			return transportError(err)
		}
		if !stateNotice(buf) {
			c.unread--
		}
	}
	return nil
}

// stateNotice tells whether a PDU is pmcd's notice of a state change.
func stateNotice(buf []byte) bool {
	h, err := pdu.ParseHeader(buf)
	if err != nil || h.Type != pdu.TypeError {
		return false
	}
	var e pdu.Error
	return e.Decode(buf) == nil && e.Code > 0
}

// missedWait tells whether a failed read ran out of time before any of
// the PDU came (before is c.rb.taken when it began), which leaves the
// stream in step; a cancelled ctx does not count. The caller holds mu.
func (c *HostContext) missedWait(err error, before int64) bool {
	return errors.Is(err, pcp.ErrTimeout) && !errors.Is(err, context.Canceled) && c.rb.taken == before
}
