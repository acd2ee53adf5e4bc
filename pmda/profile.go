package pmda

import (
	"slices"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// profile is the instance profile pmcd last sent: which instances of each
// domain a fetch returns. As in libpcp_pmda there is one, the last
// received; pmcd sends a client's profile before a fetch whenever it differs
// from what the agent has.
type profile struct {
	state  int32 // pdu.ProfileInclude or pdu.ProfileExclude
	indoms []pdu.InDomProfile
}

// selects reports whether the profile lets inst of indom into a fetch.
// With no profile every instance is selected.
func (p *profile) selects(indom pcp.InDom, inst int32) bool {
	for i := range p.indoms {
		d := &p.indoms[i]
		if d.InDom != indom {
			continue
		}
		// A listed instance is the exception to its domain's state.
		return slices.Contains(d.Insts, inst) != (d.State == pdu.ProfileInclude)
	}
	return p.state == pdu.ProfileInclude
}

// Profile replaces the instance profile. It keeps its own copy of m.
func (a *Agent) Profile(m *pdu.Profile) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.profile.state = m.State
	a.profile.indoms = a.profile.indoms[:0]
	for _, d := range m.InDoms {
		d.Insts = slices.Clone(d.Insts)
		a.profile.indoms = append(a.profile.indoms, d)
	}
}
