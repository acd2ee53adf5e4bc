// Package profile is a PMAPI context's instance profile, PCP's
// pmProfile, shared by the context kinds of pmapi and pmapi/local: which
// instances of each instance domain a fetch returns.
package profile

import (
	"slices"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// Profile is a global state for instance domains without an entry, and
// per instance domain a state and a list of instances that are the
// exception to it. The zero Profile excludes everything; Reset it to
// pdu.ProfileInclude first, as a new context does.
type Profile struct {
	state  int32
	indoms []pdu.InDomProfile // in the order entries were made, as PCP keeps them
}

// Reset drops every entry and sets the global state.
func (p *Profile) Reset(state int32) {
	p.state = state
	p.indoms = nil
}

func (p *Profile) find(indom pcp.InDom) *pdu.InDomProfile {
	for i := range p.indoms {
		if p.indoms[i].InDom == indom {
			return &p.indoms[i]
		}
	}
	return nil
}

// entry returns indom's entry, making one that starts out excluding every
// instance (PCP's starting state for both calls) when there is none.
func (p *Profile) entry(indom pcp.InDom) *pdu.InDomProfile {
	if e := p.find(indom); e != nil {
		return e
	}
	p.indoms = append(p.indoms, pdu.InDomProfile{InDom: indom, State: pdu.ProfileExclude})
	return &p.indoms[len(p.indoms)-1]
}

// Message is the PROFILE PDU carrying p for a context slot.
func (p *Profile) Message(slot int32) *pdu.Profile {
	return &pdu.Profile{Context: slot, State: p.state, InDoms: p.indoms}
}

// Change applies pmAddProfile (add) or pmDelProfile to the profile; the
// PM_INDOM_NULL with instances case is the caller's to refuse.
func (p *Profile) Change(indom pcp.InDom, insts []int32, add bool) {
	state := pdu.ProfileExclude
	if add {
		state = pdu.ProfileInclude
	}
	if indom == pcp.InDomNull {
		p.Reset(state)
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

// Admits reports whether the profile lets an instance of indom through,
// __pmInProfile.
func (p *Profile) Admits(indom pcp.InDom, inst int32) bool {
	e := p.find(indom)
	if e == nil {
		return p.state == pdu.ProfileInclude
	}
	listed := slices.Contains(e.Insts, inst)
	if e.State == pdu.ProfileInclude {
		return !listed
	}
	return listed
}

// Clone is a deep copy of the profile.
func (p *Profile) Clone() Profile {
	out := Profile{state: p.state, indoms: make([]pdu.InDomProfile, len(p.indoms))}
	for i, d := range p.indoms {
		d.Insts = slices.Clone(d.Insts)
		out.indoms[i] = d
	}
	return out
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
