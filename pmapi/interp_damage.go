package pmapi

import (
	"errors"
	"math"
	"sort"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/pcp"
)

// interpDamage is the first damage met reading the context's archives.
// libpcp's interpolation reads records lazily, so it fails only on the
// fetches whose search for a bound runs into damage, and answers the
// others from the records it can reach.
type interpDamage struct {
	err error // the reader's error, pcp.ErrLogRec for a damaged record
}

// place finds the segment libpcp reads in after positioning for a fetch
// at t with the temporal index (as pmSetMode leaves it): that of the
// place __pmLogSetTime picks in the archive holding t. When the first
// read in the fetch's direction from that place fails (an index entry
// that names no record's boundary, or a damaged record), libpcp's
// interpolation never gets off it: every fetch that reads fails there
// until the next pmSetMode: stuck says so. Going forwards, when the read
// backwards from that place fails instead (an index entry naming a place
// past its volume's end, from where libpcp's backward read goes wrong in
// the next volume), the place is like the start of a segment after
// damage: backFrom is the time of the first record read forwards from
// it, NaN otherwise.
func (ip *interpolator) place(t pcp.Timestamp, back bool) (seg int, stuck bool, backFrom float64, atEnd bool) {
	pl := ip.placing(t, back)
	return ip.segmentOf(pl.at), pl.stuck, pl.backFrom, pl.atEnd
}

// placed is where a placing for a fetch puts libpcp (see place).
type placed struct {
	at       spot
	stuck    bool
	backFrom float64
	atEnd    bool
}

// segmentOf is the segment that holds the place at.
func (ip *interpolator) segmentOf(at spot) int {
	best := 0
	for k, s := range ip.segments {
		if !s.from.after(at) {
			best = k
		}
	}
	return best
}

// placing is place's look at the data around the place the temporal
// index gives for t, which does not need the segments.
func (ip *interpolator) placing(t pcp.Timestamp, back bool) (pl placed) {
	backFrom := math.NaN()
	var stuck, atEnd bool
	mode := ModeForw
	if back {
		mode = ModeBack
	}
	c := ip.c
	n := 0
	if len(c.logs) > 1 {
		if mode == ModeBack {
			for i, a := range c.logs {
				if a.Label.Start.Sub(t) <= 0 {
					n = i
				}
			}
		} else {
			n = len(c.logs) - 1
			for i, a := range c.logs {
				if end, err := a.End(); err == nil && end.Sub(t) >= 0 {
					n = i
					break
				}
			}
		}
	}
	rd := c.logs[n].NewReader()
	defer rd.Close()
	_ = rd.Seek(readerMode(mode), t)
	serial := rd.Serial()
	vol, off := rd.Position()
	at := spot{n, vol, off}
	var res pcp.Result
	if rd.ReadFrom(readerMode(mode), vol, off) == nil {
		err := rd.Next(&res)
		if err != nil && !errors.Is(err, pcp.ErrEOL) {
			stuck = true
		}
		// only when libpcp reads on from the placing: otherwise it
		// steps back to the time sought first
		atEnd = !back && serial && errors.Is(err, pcp.ErrEOL)
		if err == nil && !back && rd.ReadFrom(archive.Backward, vol, off) == nil {
			first := ip.rel(res.Timestamp)
			if err := rd.Next(&res); err != nil && !errors.Is(err, pcp.ErrEOL) {
				backFrom = first
			}
		}
	}
	return placed{at: at, stuck: stuck, backFrom: backFrom, atEnd: atEnd}
}

// pastDamage reports whether a fetch at t must read into damage: an
// instance it asks for has, in the segment libpcp reads in, no value or
// <mark> at or after t before damage ends the segment (so the search for
// its next bound reaches the broken record), or none at or before t
// after damage starts it. Instances the metadata says are not alive at t
// are not searched for.
func (ip *interpolator) pastDamage(pmids []pcp.PMID, t float64) bool {
	if len(ip.segments) == 0 {
		return false
	}
	if ip.seg < 0 {
		if pl := ip.lazyPlaced; pl != nil {
			// placed while the records were read lazily: at the
			// first fetch after positioning, as here
			ip.seg, ip.stuck, ip.backFrom, ip.atEnd = ip.segmentOf(pl.at), pl.stuck, pl.backFrom, pl.atEnd
		} else {
			ip.seg, ip.stuck, ip.backFrom, ip.atEnd = ip.place(ip.c.origin, ip.c.delta < 0)
		}
	}
	k, stuck := ip.seg, ip.stuck
	backFrom := !math.IsNaN(ip.backFrom)
	if !stuck && !backFrom && ip.damage == nil && len(ip.segments) < 2 {
		return false
	}
	s := ip.segments[k]
	if backFrom && ip.backFrom > s.first {
		// libpcp's reads start at the placing: the records before it
		// are beyond the damage its backward read meets
		s.first, s.damagedStart = ip.backFrom, true
	}
	// libpcp's reads cannot leave the segment: past its ends lie damage
	// or the ends of the data
	ip.reach = [2]float64{s.first, s.last}
	if len(ip.segments) == 1 && !backFrom {
		ip.reach = [2]float64{math.Inf(-1), math.Inf(1)}
	}

	if !s.damagedEnd && !s.damagedStart && !stuck {
		return false
	}
	marked := func(lo, hi float64) bool {
		i := sort.SearchFloat64s(ip.marks, lo)
		return i < len(ip.marks) && ip.marks[i] <= hi
	}
	fwd := s.damagedEnd && !marked(t, s.last)
	bwd := s.damagedStart && !marked(s.first, t)
	// Before searching, libpcp rolls on to t when an instance has no
	// lower bound yet (none read at or before an earlier fetch's time),
	// reading every record up to the first past t: at the segment's last
	// record that read meets the damage.
	roll := s.damagedEnd && ip.c.delta >= 0 && t >= s.last
	if roll && ip.hasSeen && marked(math.Inf(-1), ip.seenUpTo) {
		roll = false // the <mark> bounds every instance
	}
	if !fwd && !bwd && !roll && !stuck {
		return false
	}
	for _, id := range pmids {
		m := ip.metrics[id]
		if id == pcp.PMIDNull || m == nil || m.err != 0 {
			continue
		}
		for _, inst := range m.order {
			if m.desc.InDom != pcp.InDomNull && !ip.c.profile.Admits(m.desc.InDom, inst) {
				continue
			}
			if life, ok := m.alive[inst]; ok && (life[0] > t || (life[1] >= 0 && t > life[1])) {
				continue
			}
			if stuck {
				return true // the first read for any instance fails
			}
			is := m.insts[inst]
			if roll && (!ip.hasSeen || is.len() == 0 || is.time(0) > ip.seenUpTo) {
				return true
			}
			if fwd {
				i := is.atOrAfter(t)
				if i == is.len() || is.time(i) > s.last {
					return true
				}
			}
			if bwd {
				i := is.atOrAfter(s.first)
				if i == is.len() || is.time(i) > t {
					return true
				}
			}
		}
	}
	return false
}

// pastEnd reports a fetch at t outside the archive. For one archive this
// is libpcp's test: the end it knows starts at the archive's start and
// is looked up again only for a time more than a millisecond past it
// (and stays put when a damaged archive's end cannot be found); a time
// past the end so looked up, or a millisecond before the start, has no
// values.
func (ip *interpolator) pastEnd(t float64) bool {
	if t < -0.001 {
		return true
	}
	if ip.endKnown {
		return t > ip.end+0.001
	}
	if t <= ip.end+0.001 {
		return false
	}
	if end, err := ip.c.End(); err == nil {
		ip.end = ip.rel(end)
	}
	return t > ip.end
}
