package pmapi

import (
	"context"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
)

// AddProfile adds instances of an instance domain to the context's
// instance profile, which says which instances fetches return, as
// pmAddProfile does. With pcp.InDomNull and no instances every instance
// of every domain is included again, the profile's other entries being
// dropped; with another instance domain and no instances all of its
// instances are. The first mention of an instance domain starts it out
// excluding all its instances. pcp.InDomNull with instances is
// pcp.ErrProfileSpec.
//
// The profile is sent to pmcd (a PROFILE PDU) before the next fetch, or
// the next request for instance labels, as libpcp sends it.
func (c *HostContext) AddProfile(indom pcp.InDom, insts []int32) error {
	return c.changeProfile(indom, insts, true)
}

// DelProfile removes instances of an instance domain from the context's
// instance profile, as pmDelProfile does: pcp.InDomNull and no instances
// excludes every instance of every domain, dropping the other entries;
// another instance domain and no instances excludes all of its instances.
// The first mention of an instance domain starts it out excluding all its
// instances, so that deleting some instances of a domain not yet in the
// profile leaves none of them. pcp.InDomNull with instances is
// pcp.ErrProfileSpec.
func (c *HostContext) DelProfile(indom pcp.InDom, insts []int32) error {
	return c.changeProfile(indom, insts, false)
}

func (c *HostContext) changeProfile(indom pcp.InDom, insts []int32, add bool) error {
	name := "DelProfile"
	if add {
		name = "AddProfile"
	}
	if indom == pcp.InDomNull && len(insts) > 0 {
		return fmt.Errorf("pmapi: %s: instances with PM_INDOM_NULL: %w", name, pcp.ErrProfileSpec)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return fmt.Errorf("pmapi: %s: %w", name, pcp.ErrNoContext)
	}
	c.profSent = false
	c.profile.Change(indom, insts, add)
	return nil
}

// sendProfile sends the profile when pmcd does not have it yet; pmcd
// does not answer. The caller holds mu.
func (c *HostContext) sendProfile(ctx context.Context) error {
	if c.profSent {
		return nil
	}
	if err := c.send(ctx, c.profile.Message(contextSlot)); err != nil {
		return err
	}
	c.profSent = true
	return nil
}
