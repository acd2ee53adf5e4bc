package pmapi

import (
	"context"
	"fmt"
	"slices"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// profile is a context's instance profile, PCP's pmProfile: a global
// state for instance domains without an entry, and per instance domain a
// state and a list of instances that are the exception to it.
type profile struct {
	state  int32
	indoms []pdu.InDomProfile // in the order entries were made, as PCP keeps them
}

func (p *profile) reset(state int32) {
	p.state = state
	p.indoms = nil
}

func (p *profile) find(indom pcp.InDom) *pdu.InDomProfile {
	for i := range p.indoms {
		if p.indoms[i].InDom == indom {
			return &p.indoms[i]
		}
	}
	return nil
}

// entry returns indom's entry, making one that starts out excluding every
// instance (PCP's starting state for both calls) when there is none.
func (p *profile) entry(indom pcp.InDom) *pdu.InDomProfile {
	if e := p.find(indom); e != nil {
		return e
	}
	p.indoms = append(p.indoms, pdu.InDomProfile{InDom: indom, State: pdu.ProfileExclude})
	return &p.indoms[len(p.indoms)-1]
}

// message is the PROFILE PDU carrying p.
func (p *profile) message() *pdu.Profile {
	return &pdu.Profile{Context: contextSlot, State: p.state, InDoms: p.indoms}
}

func union(list, add []int32) []int32 {
	if list == nil {
		return slices.Clone(add)
	}
	for _, inst := range add {
		if !slices.Contains(list, inst) {
			list = append(list, inst)
		}
	}
	return list
}

func subtract(list, del []int32) []int32 {
	if list == nil {
		return nil
	}
	return slices.DeleteFunc(list, func(inst int32) bool { return slices.Contains(del, inst) })
}

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
func (c *Context) AddProfile(indom pcp.InDom, insts []int32) error {
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
func (c *Context) DelProfile(indom pcp.InDom, insts []int32) error {
	return c.changeProfile(indom, insts, false)
}

func (c *Context) changeProfile(indom pcp.InDom, insts []int32, add bool) error {
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
	c.profile.change(indom, insts, add)
	return nil
}

// change applies pmAddProfile (add) or pmDelProfile to the profile; the
// PM_INDOM_NULL with instances case is the caller's to refuse.
func (p *profile) change(indom pcp.InDom, insts []int32, add bool) {
	state := pdu.ProfileExclude
	if add {
		state = pdu.ProfileInclude
	}
	if indom == pcp.InDomNull {
		p.reset(state)
		return
	}
	e := p.entry(indom)
	if len(insts) == 0 {
		e.State, e.Insts = state, nil
		return
	}
	// Insts lists the exceptions to the entry's state: those excluded
	// from an including entry, those included in an excluding one.
	if (e.State == pdu.ProfileInclude) == add {
		e.Insts = subtract(e.Insts, insts)
	} else {
		e.Insts = union(e.Insts, insts)
	}
}

// sendProfile sends the profile when pmcd does not have it yet; pmcd
// does not answer. The caller holds mu.
func (c *Context) sendProfile(ctx context.Context) error {
	if c.profSent {
		return nil
	}
	if err := c.send(ctx, c.profile.message()); err != nil {
		return err
	}
	c.profSent = true
	return nil
}
