package proc

import (
	"context"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// control answers proc.control.*: the agent's thread setting and a
// client's own thread and cgroup settings.
func (p *Proc) control(c pmda.Client, item uint32, a *pcp.Atom) int32 {
	cs := p.client(c)
	switch item {
	case 1:
		a.UL = uint32(b2i(p.threads))
	case 2:
		a.UL = uint32(b2i(p.threadsFor(cs)))
	case 3:
		a.CP = p.cgroups
		if cs != nil && cs.cgroupsSet {
			a.CP = cs.cgroups
		}
	default:
		return int32(pcp.ErrPMID)
	}
	return haveValue
}

// Store changes the control metrics as PCP's agent allows: threads for
// everyone (0 or 1) or for the client itself, a client's cgroup, and
// hotproc's settings for root clients only.
func (p *Proc) Store(ctx context.Context, c pmda.Client, set *pcp.ValueSet) error {
	p.state.Lock()
	defer p.state.Unlock()
	id := set.PMID
	cs := p.client(c)
	if handled, err := p.sourceStore(cs, set); handled {
		return err
	}
	access := p.allAccess || cs.credentialed()
	root := cs != nil && cs.hasUID && cs.uid == 0
	switch id.Cluster() {
	case cControl:
		if len(set.Values) != 1 {
			return pcp.ErrInst
		}
		switch id.Item() {
		case 1:
			if !access {
				return pcp.ErrPermission
			}
			v, err := u32Of(set)
			if err != nil {
				return err
			}
			if v > 1 {
				return pcp.ErrBadStore
			}
			p.threads = v == 1
		case 2:
			v, err := u32Of(set)
			if err != nil {
				return err
			}
			if cs == nil {
				return pcp.ErrNoContext
			}
			if v > 1 {
				return pcp.ErrBadStore
			}
			p.mu.Lock()
			cs.threads, cs.threadsSet = v == 1, true
			p.mu.Unlock()
		case 3:
			s, err := stringOf(set)
			if err != nil {
				return err
			}
			if cs == nil {
				return pcp.ErrNoContext
			}
			if s == "" {
				return pcp.ErrBadStore
			}
			p.mu.Lock()
			cs.cgroups, cs.cgroupsSet = s, true
			p.mu.Unlock()
		default:
			return pcp.ErrPermission
		}
		return nil
	case cHotGlobal:
		if !root {
			return pcp.ErrPermission
		}
		return p.hotproc.store(id.Item(), set)
	}
	return pcp.ErrPermission
}

// u32Of is a stored value as an unsigned 32-bit number.
func u32Of(set *pcp.ValueSet) (uint32, error) {
	a, err := pcp.ExtractValue(set.ValFmt, &set.Values[0], pcp.TypeU32, pcp.TypeU32)
	if err != nil {
		return 0, err
	}
	return a.UL, nil
}

// stringOf is a stored value as a string.
func stringOf(set *pcp.ValueSet) (string, error) {
	a, err := pcp.ExtractValue(set.ValFmt, &set.Values[0], pcp.TypeString, pcp.TypeString)
	if err != nil {
		return "", err
	}
	return a.CP, nil
}
