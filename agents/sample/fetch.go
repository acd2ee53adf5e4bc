package sample

import (
	"context"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// Fetch satisfies pmda.Fetcher; the agent answers through FetchSet.
func (s *agent) Fetch(ctx context.Context, m *pmda.Metric, inst int32) (pcp.Atom, error) {
	return pcp.Atom{}, pcp.ErrPMID
}

// Refresh does what happens once per fetch request: the clock is read
// once, sample.mirage and sample.dodgey move on when due, and the domains
// of the metrics asked for (sample.dynamic, sample.ghosts, sample.proc)
// are brought up to date.
//
// Refresh takes s.mu and FetchEnd lets it go, so the request's FetchSet
// calls run under it without taking it a dozen times a fetch (an atomic
// pair and a deferred call each, a fifth of the agent's fetch).
func (s *agent) Refresh(ctx context.Context, pmids []pcp.PMID) error {
	s.mu.Lock()
	held := false
	defer func() {
		if !held { // a panic: pmda calls FetchEnd only after a nil
			s.mu.Unlock()
		}
	}()
	if s.mirage.need {
		s.redoMirage()
	}
	if s.newDodgey < 0 {
		s.redoDodgey()
	}
	s.fetchNow = s.now()
	s.streams.planned = false
	s.streams.pmids = append(s.streams.pmids[:0], pmids...)
	s.procDone, s.dynDone, s.ghostDone = false, false, false
	held = true
	return nil
}

// FetchEnd lets go of s.mu, which Refresh took, as pmda.FetchEnder.
func (s *agent) FetchEnd() { s.mu.Unlock() }

// FetchSet answers one metric of a fetch, as pmda.SetFetcher, under the
// s.mu that Refresh took.
func (s *agent) FetchSet(ctx context.Context, c pmda.Client, pmid pcp.PMID, prof pmda.ProfileView, add func(int32, pcp.Type, *pcp.Atom) error) error {
	d := s.def(pmid.Item())
	if d == nil || pmid.Domain() != s.domain || pmid.Cluster() != 0 {
		return pmda.ErrNoValue // PCP's agent answers no values, not an error
	}
	item := pmid.Item()
	s.fetchProf = prof
	// Some domains move on once a fetch, when the first of their
	// metrics is reached (not if the fetch fails before).
	switch {
	case item >= itemDynamicCounter && item <= itemDynamicInstant && !s.dynDone:
		s.dynDone = true
		s.redoDynamic(true)
	case item >= itemGhostsOrigin && item <= itemGhostsState && !s.ghostDone:
		s.ghostDone = true
		s.ghostState = (s.ghostState + 1) % 24
	}
	typ, indom := d.typ, pcp.InDomNull
	if d.indom != noInDom {
		indom = pcp.NewInDom(s.domain, d.indom)
	}
	switch item {
	case itemDynamicMetaMetric:
		// PCP's agent makes one value for this metric whatever its
		// descriptor says, more only when the instance domain it was
		// given is one of the agent's.
		typ, indom = s.magic.Type, s.magic.InDom
		if _, err := s.members(indom); err != nil {
			indom = pcp.InDomNull
		}
	case itemBadUnknown:
		return pcp.ErrPMID
	case itemDarkness, itemBadNoValues, itemNoInst, itemEventType, itemEventParam32, itemEventParamU32,
		itemEventParam64, itemEventParamU64, itemEventParamFloat, itemEventParamDouble,
		itemEventParamString, itemEventParamAggregate:
		return pmda.ErrNoValue
	case itemBadFetchAgain:
		return pcp.ErrAgain
	case itemGhostsOrigin, itemGhostsKarma, itemGhostsState:
		if s.visible < 0 {
			return pcp.ErrPMID
		}
	case itemSysinfo:
		typ = pcp.TypeAggregateStatic
	}
	if d.typ == pcp.TypeNoSupport {
		return pcp.ErrAppVersion
	}
	if indom == pcp.InDomNull {
		if err := s.value(c, item, pcp.InstNull, &s.atom); err != nil {
			return err
		}
		return s.pack(add, pcp.InstNull, typ, &s.atom)
	}
	if item == itemNeedProfile && !prof.Explicit(indom) {
		return pcp.ErrProfile
	}
	if item == itemScrambleBin {
		s.reshuffle()
	}
	if item >= itemProcOrdinal && item <= itemProcTime && !s.procDone {
		// At most once a fetch, when the first of them is reached.
		s.procDone = true
		s.proc.redo(time.Now())
	}
	insts, err := s.members(indom)
	if err != nil {
		return pmda.ErrNoValue
	}
	n := 0
	for _, in := range insts {
		if !prof.Selects(indom, in.ID) {
			continue
		}
		inst := in.ID
		switch {
		case item == itemPartBin && inst%200 == 0:
			continue
		case item == itemBogusBin && inst%200 == 0:
			inst += 50 // an instance the domain does not have
		case item == itemDodgeyValue:
			if s.dodgeyCtl > 5 && n == 0 {
				s.newDodgey--
			}
			if s.tmpDodgey < 0 {
				return pcp.Error(s.tmpDodgey)
			}
			if s.tmpDodgey == 0 {
				return pmda.ErrNoValue
			}
			if inst > s.tmpDodgey {
				continue
			}
		case item >= itemDynamicCounter && item <= itemDynamicInstant && int(inst) >= len(s.dyn.ctr):
			return nil // values so far, as PCP's agent stops here
		}
		if err := s.value(c, item, inst, &s.atom); err != nil {
			return err
		}
		if err := s.pack(add, inst, typ, &s.atom); err != nil {
			return err
		}
		n++
	}
	return nil
}

func (s *agent) pack(add func(int32, pcp.Type, *pcp.Atom) error, inst int32, typ pcp.Type, atom *pcp.Atom) error {
	if err := add(inst, typ, atom); err != nil {
		return pmda.FailRequest(err)
	}
	return nil
}

// ghostState is a ghost's on/off state: ghosts 1 and 2 alternate every
// state, 3 and 4 every two, 5 and 6 every three, 7 every four; 8 is
// always off.
func ghostState(inst, state int32) uint32 {
	if inst < 1 || inst > 7 {
		return 0
	}
	period := (inst + 1) / 2 // half a cycle
	on := state%(2*period) < period
	if inst%2 == 0 {
		on = !on
	}
	if inst == 7 {
		on = state%8 < 4
	}
	if on {
		return 1
	}
	return 0
}

// scaleStepNext is one of sample.scale_step.*'s values: each holds for
// five fetches, then grows (or shrinks) by a step until a limit, where it
// starts over.
func (s *agent) scaleStepNext(i int) float64 {
	v := s.scaleStep[i]
	s.scaleN[i]++
	if s.scaleN[i]%5 != 0 {
		return v
	}
	const tb = 1024.0 * 1024 * 1024 * 1024
	p := &s.scaleStep[i]
	switch i {
	case 0:
		if *p < tb {
			*p *= 2
		} else {
			*p = 1
		}
	case 1:
		if *p > 1 {
			*p /= 2
		} else {
			*p = tb
		}
	case 2:
		if *p < 1e12 {
			*p *= 10
		} else {
			*p = 1
		}
	case 3:
		if *p > 1 {
			*p /= 10
		} else {
			*p = 1e12
		}
	case 4:
		if *p < 60*60*24 {
			*p *= 10
		} else {
			*p = 1
		}
	case 5:
		if *p < 1e9*60*60*24 {
			*p *= 10
		} else {
			*p = 1
		}
	case 6:
		if *p < 10000000 {
			*p *= 10
		} else {
			*p = 1
		}
	}
	return v
}

// next moves sample.updown.obs: every repeat fetches it steps up or down,
// turning round at the limits.
func (u *updown) next() int32 {
	u.click--
	if u.click <= 0 {
		u.click = int32(u.repeat)
		u.obs += u.dir * int32(u.step)
		if u.obs < u.min {
			u.obs = u.min + int32(u.step)
			u.dir = -u.dir
		}
		if u.obs > u.max {
			u.obs = u.max - int32(u.step)
			u.dir = -u.dir
		}
	}
	return u.obs
}
