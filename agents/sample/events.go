package sample

import (
	"fmt"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// eventStreams are the agent's event record streams: per instance of the event
// domain (fungus 0, bogus 1), for legacy and high resolution records.
// Instance fungus cycles through four sets of records, one per fetch;
// bogus (and the metric without instances) sends one or two records
// numbered by the fetch.
type eventStreams struct {
	arrays, hires [2]*pmda.EventArray
	// pending counts the uses of each array still to come in the fetch
	// in hand, by [highres][instance]. PCP's agent returns the same
	// buffer for every use in one fetch, so every value shows what the
	// last use put there; knowing how many uses follow lets each build
	// that content.
	pending [2][2]int
	planned bool
	pmids   []pcp.PMID // the fetch in hand's, for plan
}

// plan counts the event array uses a fetch of pmids will make under the
// profile: sample.event.records and highres_records use an array per
// instance the profile selects, no_indom_records bogus's legacy array.
func (e *eventStreams) plan(domain uint32, pmids []pcp.PMID, prof pmda.ProfileView) {
	e.pending = [2][2]int{}
	indom := pcp.NewInDom(domain, eventInDom)
	for _, id := range pmids {
		if id.Domain() != domain || id.Cluster() != 0 {
			continue
		}
		switch id.Item() {
		case itemEventRecords, itemEventHighResRecords:
			hr := 0
			if id.Item() == itemEventHighResRecords {
				hr = 1
			}
			for inst := range 2 {
				if prof.Selects(indom, int32(inst)) {
					e.pending[hr][inst]++
				}
			}
		case itemEventNoInDomRecords:
			e.pending[0][1]++
		}
	}
	e.planned = true
}

func newEvents() eventStreams {
	var e eventStreams
	for i := range 2 {
		e.arrays[i] = pmda.NewEventArray()
		e.hires[i] = pmda.NewHighResEventArray()
	}
	return e
}

// aggrParam is the aggregate parameter of fungus's fourth set.
var aggrParam = &pcp.ValueBlock{Type: pcp.TypeAggregate, Data: []byte{0o1, 0o3, 0o7, 0o17, 0o37, 0o77, 0o177, 0o377}}

// eventValue is a value of sample.event.records, no_indom_records or
// highres_records for inst.
func (s *agent) eventValue(item uint32, inst int32) (pcp.Atom, error) {
	highres := item == itemEventHighResRecords
	if inst < 0 || inst > 1 {
		inst = 1
	}
	arr := s.streams.arrays[inst]
	count, xcount := &s.eventFetch, &s.eventX
	if highres {
		arr = s.streams.hires[inst]
		count, xcount = &s.hiresFetch, &s.hiresX
	}
	if !s.streams.planned {
		s.streams.plan(s.domain, s.streams.pmids, s.fetchProf)
	}
	hr := 0
	if highres {
		hr = 1
	}
	later := max(s.streams.pending[hr][inst]-1, 0)
	s.streams.pending[hr][inst] = later
	// Build what the last use in this fetch will leave, and count this
	// use alone.
	*count += int32(later)
	*xcount += int32(later)
	defer func() {
		*count -= int32(later)
		*xcount -= int32(later)
	}()
	arr.Reset()
	now := time.Now()
	if !highres {
		now = now.Truncate(time.Microsecond)
	}
	pmid := func(item uint32) pcp.PMID { return pcp.NewPMID(s.domain, 0, item) }
	var err error
	rec := func(flags uint32) {
		if err == nil {
			err = arr.AddRecord(now, flags)
			now = now.Add(time.Second)
		}
	}
	param := func(id pcp.PMID, t pcp.Type, a pcp.Atom) {
		if err == nil {
			err = arr.AddParam(id, t, &a)
		}
	}
	const (
		typ, p32, pu32, p64, pu64, pfloat, pdouble, pstring, paggr = 127, 128, 129, 130, 131, 132, 133, 134, 135
	)
	if inst == 0 {
		now = now.Add(-10 * time.Second)
		c := *count
		if c >= 0 {
			c %= 4
		}
		switch c {
		case 1:
			rec(pcp.EventFlagPoint)
		case 2:
			rec(pcp.EventFlagPoint)
			param(pmid(typ), pcp.TypeU32, pcp.Atom{UL: 1})
			rec(pcp.EventFlagPoint)
			param(pmid(typ), pcp.TypeU32, pcp.Atom{UL: 2})
			param(pmid(p64), pcp.Type64, pcp.Atom{LL: -3})
		case 3:
			rec(pcp.EventFlagStart | pcp.EventFlagID | pcp.EventFlagParent)
			param(pmid(typ), pcp.TypeU32, pcp.Atom{UL: 4})
			param(pmid(pu64), pcp.TypeU64, pcp.Atom{ULL: 5})
			param(pmid(pstring), pcp.TypeString, pcp.Atom{CP: "6"})
			rec(pcp.EventFlagPoint)
			param(pmid(typ), pcp.TypeU32, pcp.Atom{UL: 7})
			param(pmid(pdouble), pcp.TypeDouble, pcp.Atom{D: 8})
			param(pmid(pdouble), pcp.TypeDouble, pcp.Atom{D: -9})
			rec(pcp.EventFlagEnd)
			param(pmid(typ), pcp.TypeU32, pcp.Atom{UL: 10})
			param(pmid(pu64), pcp.TypeU64, pcp.Atom{ULL: 11})
			param(pmid(pstring), pcp.TypeString, pcp.Atom{CP: "twelve"})
			param(pmid(pstring), pcp.TypeString, pcp.Atom{CP: "thirteen"})
			param(pmid(p32), pcp.Type32, pcp.Atom{L: -14})
			param(pmid(pu32), pcp.TypeU32, pcp.Atom{UL: 15})
			missed := int32(7)
			if highres {
				missed = 7000
			}
			if err == nil {
				err = arr.AddMissedRecord(now, missed)
				now = now.Add(time.Second)
			}
			rec(pcp.EventFlagPoint)
			param(pmid(typ), pcp.TypeU32, pcp.Atom{UL: 16})
			param(pmid(pfloat), pcp.TypeFloat, pcp.Atom{F: -17})
			param(pmid(paggr), pcp.TypeAggregate, pcp.Atom{VBP: aggrParam})
		case -1:
			// A parameter no namespace knows, for clients' error paths.
			rec(pcp.EventFlagPoint)
			param(pmid(typ), pcp.TypeU32, pcp.Atom{UL: uint32(c)})
			param(pcp.NewPMID(0, 100, 200), pcp.TypeU32, pcp.Atom{UL: uint32(c)})
		}
		*count++
	} else {
		if err = arr.AddRecord(now, pcp.EventFlagPoint); err == nil {
			param(pmid(pstring), pcp.TypeString, pcp.Atom{CP: fmt.Sprintf("fetch #%d", *xcount)})
			if *xcount%3 == 0 {
				if err = arr.AddRecord(now, pcp.EventFlagPoint); err == nil {
					param(pmid(pstring), pcp.TypeString, pcp.Atom{CP: "bingo!"})
				}
			}
		}
		*xcount++
	}
	if err != nil {
		return pcp.Atom{}, pmda.FailRequest(err)
	}
	return pcp.Atom{VBP: arr.Value()}, nil
}
