package pmda

import (
	"cmp"
	"slices"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// profile is the instance profile pmcd last sent: which instances of each
// domain a fetch returns. As in libpcp_pmda there is one, the last
// received; pmcd sends a client's profile before a fetch whenever it differs
// from what the agent has.
//
// The entries are kept sorted by domain, each with its instances sorted, so
// that a check costs two binary searches however long the profile: pmcd
// sends profiles rarely and fetches often.
type profile struct {
	state  int32 // pdu.ProfileInclude or pdu.ProfileExclude
	indoms []pdu.InDomProfile
	insts  []int32 // the storage of indoms' instances
}

// selects reports whether the profile lets inst of indom into a fetch.
// With no profile every instance is selected.
func (p *profile) selects(indom pcp.InDom, inst int32) bool {
	i, ok := slices.BinarySearchFunc(p.indoms, indom, func(d pdu.InDomProfile, x pcp.InDom) int { return cmp.Compare(d.InDom, x) })
	if !ok {
		return p.state == pdu.ProfileInclude
	}
	d := &p.indoms[i]
	// A listed instance is the exception to its domain's state.
	_, listed := slices.BinarySearch(d.Insts, inst)
	return listed != (d.State == pdu.ProfileInclude)
}

// Profile replaces the instance profile. It keeps its own copy of m.
// Of entries for the same instance domain the first counts, as in PCP.
func (a *Agent) Profile(m *pdu.Profile) {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := &a.profile
	p.state = m.State
	p.indoms = append(p.indoms[:0], m.InDoms...)
	slices.SortStableFunc(p.indoms, func(x, y pdu.InDomProfile) int { return cmp.Compare(x.InDom, y.InDom) })
	p.indoms = slices.CompactFunc(p.indoms, func(x, y pdu.InDomProfile) bool { return x.InDom == y.InDom })
	// The instances are copied into one slice the profile keeps, so that
	// a steady stream of profiles (one per fetch when clients take turns)
	// allocates nothing.
	n := 0
	for _, d := range p.indoms {
		n += len(d.Insts)
	}
	p.insts = slices.Grow(p.insts[:0], n)
	for i := range p.indoms {
		at := len(p.insts)
		p.insts = append(p.insts, p.indoms[i].Insts...)
		insts := p.insts[at:len(p.insts):len(p.insts)]
		slices.Sort(insts)
		p.indoms[i].Insts = insts
	}
}
