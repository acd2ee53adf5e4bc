package pmda

import (
	"context"
	"errors"
	"slices"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// Fetch gathers the values of pmids for client c, one value set per PMID
// in order, with the semantics of libpcp_pmda's pmdaFetch: an unknown PMID
// gets a set holding pcp.ErrPMID; a metric with an instance domain gets
// the instances the current profile selects; errors from the Fetcher drop
// the instance, and a metric left with no value carries the last error (or
// no values at all after ErrNoValue). The timestamp is left zero, as agents
// leave it for pmcd to fill in.
//
// An error from a Refresher fails the whole request; the context's error
// does too. The returned Result and its values belong to the Agent and stay
// valid only until the next call of Fetch.
func (a *Agent) Fetch(ctx context.Context, c Client, pmids []pcp.PMID) (*pcp.Result, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := a.begin(ctx, c, pdu.TypeFetch, 0); err != nil {
		return nil, err
	}
	if r, ok := a.fetcher.(Refresher); ok {
		if err := r.Refresh(ctx, pmids); err != nil {
			return nil, err
		}
	}
	res := &a.result
	res.Reset()
	a.arena = a.arena[:0]
	// Growing within capacity brings back the earlier sets with their
	// Values storage, so a steady fetch allocates nothing.
	res.Sets = slices.Grow(res.Sets, len(pmids))[:len(pmids)]
	sf, bySet := a.fetcher.(SetFetcher)
	for i, id := range pmids {
		set := &res.Sets[i]
		set.PMID = id
		if bySet {
			if err := a.fetchBySet(ctx, c, sf, set); err != nil {
				return nil, err
			}
			continue
		}
		if err := a.fetchSet(ctx, c, set); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// fetchSet fills one value set, keeping whatever Values storage it had.
func (a *Agent) fetchSet(ctx context.Context, c Client, set *pcp.ValueSet) error {
	set.Values = set.Values[:0]
	set.ValFmt = pcp.ValInSitu
	m := a.metrics[set.PMID]
	if m == nil {
		set.NumVal = int32(pcp.ErrPMID)
		return nil
	}
	var last error
	one := func(inst int32) {
		atom, err := a.fetcher.Fetch(ctx, m, inst)
		if err == nil {
			set.Values = append(set.Values, pcp.Value{Inst: inst})
			v := &set.Values[len(set.Values)-1]
			var f pcp.ValFmt
			if f, err = stuff(&a.arena, v, m.Desc.Type, &atom); err == nil {
				set.ValFmt = f
				return
			}
			set.Values = set.Values[:len(set.Values)-1]
		}
		if errors.Is(err, ErrNoValue) {
			err = nil
		}
		last = err
	}
	if m.Desc.InDom == pcp.InDomNull {
		one(pcp.InstNull)
	} else if insts, err := a.instances(ctx, c, m.Desc.InDom); err == nil {
		for _, in := range insts {
			if a.profile.selects(m.Desc.InDom, in.ID) {
				one(in.ID)
			}
		}
	} else {
		last = err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	set.NumVal = int32(len(set.Values))
	if set.NumVal == 0 && last != nil {
		set.NumVal = code(last)
	}
	return nil
}

// code is the PCP error code to send for err: its own if it is or wraps a
// pcp.Error, else PM_ERR_GENERIC.
func code(err error) int32 {
	var e pcp.Error
	if errors.As(err, &e) && e < 0 {
		return int32(e)
	}
	return int32(pcp.ErrGeneric)
}
