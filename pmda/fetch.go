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
// no values at all after ErrNoValue). The timestamp is zero, as agents
// leave it for pmcd to fill in, except that its seconds carry the changes
// noted with NoteChange since the last fetch answered, as libpcp_pmda's
// pmdaFetch carries them to pmcd.
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
		if e, ok := r.(FetchEnder); ok {
			defer e.FetchEnd()
		}
	}
	res := &a.result.Result
	res.Reset()
	a.arena = a.arena[:0]
	// Growing within capacity brings back the earlier sets with their
	// Values storage, so a steady fetch allocates nothing.
	res.Sets = slices.Grow(res.Sets, len(pmids))[:len(pmids)]
	sf, bySet := a.fetcher.(SetFetcher)
	var sa *setAdder
	if bySet {
		// One adder for the agent's life, under a.mu: not one per
		// request (an allocation per fetch) nor one closure per set.
		sa = &a.adder
		if sa.fn == nil {
			sa.a = a
			sa.fn = sa.add
		}
	}
	for i, id := range pmids {
		set := &res.Sets[i]
		set.PMID = id
		if bySet {
			if err := a.fetchBySet(ctx, c, sf, sa, set); err != nil {
				return nil, err
			}
			continue
		}
		if err := a.fetchSet(ctx, c, set); err != nil {
			return nil, err
		}
	}
	// Only an answer that goes out takes the changes, as pmdaFetch
	// clears its flags only on success.
	res.Timestamp.Sec = a.takeChanges()
	return res, nil
}

// setAdder is the add function a SetFetcher gets: it appends a value to
// the set being filled.
type setAdder struct {
	a   *Agent
	set *pcp.ValueSet
	fn  func(inst int32, t pcp.Type, atom *pcp.Atom) error
}

func (s *setAdder) add(inst int32, t pcp.Type, atom *pcp.Atom) error {
	set := s.set
	v := nextValue(set, inst)
	f, err := stuff(&s.a.arena, v, t, atom)
	if err != nil {
		set.Values = set.Values[:len(set.Values)-1]
		return err
	}
	set.ValFmt = f
	return nil
}

// nextValue appends a value for inst to set and returns it, its other
// fields cleared. The fields are stored one by one: appending a
// pcp.Value{Inst: inst} built the value on the stack, a 4-byte store
// then read back 16 bytes at a time, which the processor cannot forward
// from its store buffer, and that stall was most of add's cost.
func nextValue(set *pcp.ValueSet, inst int32) *pcp.Value {
	n := len(set.Values)
	if n < cap(set.Values) {
		set.Values = set.Values[:n+1]
	} else {
		set.Values = append(set.Values, pcp.Value{})
	}
	v := &set.Values[n]
	v.Inst, v.LVal = inst, 0
	v.Block.Type, v.Block.Data = 0, nil
	return v
}

// fetchBySet fills set through a SetFetcher. It returns an error only when
// the whole request fails.
func (a *Agent) fetchBySet(ctx context.Context, c Client, sf SetFetcher, sa *setAdder, set *pcp.ValueSet) error {
	set.Values = set.Values[:0]
	set.ValFmt = pcp.ValInSitu
	mark := len(a.arena)
	sa.set = set
	if err := sf.FetchSet(ctx, c, set.PMID, ProfileView{&a.profile}, sa.fn); err != nil {
		// Looked into only on failure: the target escapes.
		var fail requestFailure
		if errors.As(err, &fail) {
			return fail.err
		}
		set.Values = set.Values[:0]
		set.ValFmt = pcp.ValInSitu
		a.arena = a.arena[:mark]
		set.NumVal = 0
		if !errors.Is(err, ErrNoValue) {
			set.NumVal = int32(pcp.CodeOf(err, pcp.ErrGeneric))
		}
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	set.NumVal = int32(len(set.Values))
	return nil
}

// fetchSet fills one value set, keeping whatever Values storage it had.
func (a *Agent) fetchSet(ctx context.Context, c Client, set *pcp.ValueSet) error {
	set.Values = set.Values[:0]
	set.ValFmt = pcp.ValInSitu
	m := a.metrics.get(set.PMID)
	if m == nil {
		set.NumVal = int32(pcp.ErrPMID)
		return nil
	}
	var last error
	one := func(inst int32) {
		atom, err := a.fetcher.Fetch(ctx, m, inst)
		if err == nil {
			v := nextValue(set, inst)
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
		set.NumVal = int32(pcp.CodeOf(last, pcp.ErrGeneric))
	}
	return nil
}
