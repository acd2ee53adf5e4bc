package pmapi

import (
	"context"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// Store asks pmcd to change the values of metrics, as pmStore does: r
// holds one value set per metric with at least one value each, for the
// instances to change, in the value formats a fetch gives (a 32-bit
// integer in situ, anything else in a value block). The timestamp is not
// used. An empty result is pcp.ErrTooSmall, a set without values
// pcp.ErrValue and a value block too long for PCP's 24-bit length
// pcp.ErrTooBig; pmcd's refusal comes back as its code, such as
// pcp.ErrPermission from its access control or the agent's answer (for
// example pcp.ErrPermission, -EACCES, pcp.ErrType or pcp.ErrBadStore).
func (c *HostContext) Store(ctx context.Context, r *pcp.Result) error {
	if err := c.store(ctx, r); err != nil {
		return fmt.Errorf("pmapi: Store: %w", err)
	}
	return nil
}

func (c *HostContext) store(ctx context.Context, r *pcp.Result) error {
	if len(r.Sets) == 0 {
		return pcp.ErrTooSmall
	}
	for _, set := range r.Sets {
		if set.NumVal < 0 || len(set.Values) == 0 {
			return pcp.ErrValue
		}
		if set.ValFmt == pcp.ValInSitu {
			continue
		}
		for _, v := range set.Values {
			if v.Block.Len() > pcp.MaxValueLen {
				return fmt.Errorf("value of %s: %d bytes: %w", set.PMID, len(v.Block.Data), pcp.ErrTooBig)
			}
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.send(ctx, &pdu.Result{Result: *r}); err != nil {
		return err
	}
	buf, typ, err := c.receive(ctx)
	if err != nil {
		return err
	}
	defer c.releaseReply()
	if typ != pdu.TypeError {
		c.broken()
		return fmt.Errorf("%w: pmcd answered a store with %s", pcp.ErrIPC, typ)
	}
	var e pdu.Error
	if err := e.Decode(buf); err != nil {
		c.broken()
		return err
	}
	return e.Err()
}
