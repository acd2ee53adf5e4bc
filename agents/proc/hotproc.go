package proc

import (
	"os"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// hotproc is the hot process list's state. Without a predicate (PCP's
// default: no hotproc.conf) the list is empty and the totals zero, as in
// PCP's agent; evaluating predicates is not built yet (see
// docs/proc.md), so a stored predicate is refused with PM_ERR_NYI.
type hotproc struct {
	p        *Proc
	config   string
	gen      uint32
	interval uint32
}

// init reads the configuration file, if one is named.
func (h *hotproc) init(p *Proc, path string) {
	h.p = p
	h.interval = 10
	if path == "" {
		return
	}
	if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
		p.log.Printf("proc: %s: hotproc predicates are not evaluated by this agent yet", path)
	}
}

// refresh brings the hot list up to date for a fetch.
func (h *hotproc) refresh(cs *clientState) {
	h.p.hot.refresh(&h.p.r, nil, false)
}

// global answers hotproc.control.* and hotproc.total.*.
func (h *hotproc) global(item uint32, a *pcp.Atom) int32 {
	switch item {
	case 1:
		a.UL = h.interval
	case 8:
		a.CP = h.config
	case 9:
		a.UL = h.gen
	case 10:
		a.UL = 0
	case 2, 3, 4, 5, 6, 7:
		a.F = 0
	default:
		return int32(pcp.ErrPMID)
	}
	return haveValue
}

// fetchPred answers hotproc.predicate.*: nothing while no process is hot.
func (h *hotproc) fetchPred(item uint32, pv pmda.ProfileView, indom pcp.InDom, t pcp.Type, add func(int32, pcp.Type, *pcp.Atom) error) error {
	if item < 1 || item > 7 {
		return pcp.ErrPMID
	}
	return nil
}

// store changes hotproc's settings (root clients only, checked by the
// caller).
func (h *hotproc) store(item uint32, set *pcp.ValueSet) error {
	switch item {
	case 1:
		v, err := u32Of(set)
		if err != nil {
			return err
		}
		h.interval = v
		return nil
	case 8:
		s, err := stringOf(set)
		if err != nil {
			return err
		}
		if s == "" {
			h.config = ""
			h.gen = 0
			return nil
		}
		return pcp.ErrNYI
	case 10:
		if _, err := u32Of(set); err != nil {
			return err
		}
		return nil
	}
	return pcp.ErrPermission
}
