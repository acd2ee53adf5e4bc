package pmapi

import (
	"math"
	"slices"

	"github.com/gopcp/gopcp/pcp"
)

// A lazy walk for a first fetch well into the archive (pmval -S, -O)
// starts at a temporal index entry before that fetch's time instead of
// at the archive's start, as libpcp's interpolation starts from where
// its index placing puts it: a window at the end of a 100 MB archive
// read all of it before its first value.
//
// The records before the start are then unread, so a fetch is answered
// from the window only when they cannot change the answer: every
// instance it asks for has a value or a <mark> read at or before its
// time (so its prior bound is the same), no damage was met and the walk
// passed through the place the index gives for the first fetch (so the
// entry started it at a record boundary). Damage before the start lies
// outside the stretch libpcp reads: with every prior bound after the
// start, neither its reads back nor the segment the placing falls in
// reach it. Otherwise the walk starts again from an entry twice as far
// back, and from the archive's start once that is the entry, so the
// records read at most double those a start from the right entry reads.

// windowFrom is where the first walk for a fetch at t starts: an index
// entry of the one archive before t, nil for the archive's start. pl is
// the placing libpcp makes for the fetch; back is how far before t the
// entry must lie (0 for the latest before t).
func (ip *interpolator) windowFrom(t pcp.Timestamp, pl *placed, back float64) *spot {
	if pl.stuck || !math.IsNaN(pl.backFrom) || pl.atEnd || len(ip.c.logs) != 1 {
		return nil
	}
	a := ip.c.logs[0]
	k := -1
	for j, e := range a.Index {
		at := spot{0, int(e.Vol), e.DataOffset}
		if e.Stamp.Sub(t) >= -back || at.after(pl.at) || (k >= 0 && e.Stamp.Compare(a.Index[k].Stamp) < 0) {
			break
		}
		k = j
	}
	// the first entries name the archive's first records: nothing is
	// saved by starting there
	if k < 2 {
		return nil
	}
	e := a.Index[k]
	if !a.HasVolume(int(e.Vol)) || a.PastEnd(e) {
		return nil
	}
	return &spot{0, int(e.Vol), e.DataOffset}
}

// priorsRead reports whether every instance a fetch at t asks for has a
// value or a <mark> at or before t among the records the windowed walk
// has read.
func (ip *interpolator) priorsRead(pmids []pcp.PMID, t float64) bool {
	// once true at t it stays true later for the same metrics: an
	// instance's first value read does not move once read, nor does
	// the first <mark>, so later fetches skip the look at every
	// instance (hundreds of processes a fetch)
	if ip.priorsOK && t >= ip.priorsT && slices.Equal(pmids, ip.priorsIDs) {
		return true
	}
	ok := ip.priorsAll(pmids, t)
	if ok {
		ip.priorsOK, ip.priorsT = true, t
		ip.priorsIDs = append(ip.priorsIDs[:0], pmids...)
	}
	return ok
}

// priorsAll is priorsRead's look at every instance.
func (ip *interpolator) priorsAll(pmids []pcp.PMID, t float64) bool {
	if len(ip.marks) > 0 && ip.marks[0] <= t {
		return true
	}
	for _, id := range pmids {
		m := ip.metrics[id]
		if id == pcp.PMIDNull || m == nil || m.err != 0 {
			continue
		}
		for k, inst := range m.order {
			if m.desc.InDom != pcp.InDomNull && !ip.c.profile.Admits(m.desc.InDom, inst) {
				continue
			}
			if is := m.series[k]; is.len() == 0 || is.time(0) > t {
				return false
			}
		}
	}
	return true
}

// forget drops what a walk gathered for the metrics in want, for a walk
// that starts again.
func (ip *interpolator) forget(want map[pcp.PMID]*imetric) {
	for _, m := range want {
		for _, is := range m.insts {
			*is = iseries{kept: is.kept}
		}
		m.valued, m.fmtSeen, m.badFmt, m.valfmt = timeList{}, false, math.Inf(1), 0
	}
	ip.marks, ip.segments, ip.damage, ip.scanned = nil, nil, nil, false
	ip.priorsOK = false
}

// widen starts the windowed walk again further back (see windowFrom),
// from the archive's start when no entry lies that far back.
func (ip *interpolator) widen() {
	want := ip.abandon()
	from := ip.from
	ip.from = nil
	if pl := ip.lazyPlaced; pl != nil && from != nil {
		t := ip.c.origin
		for _, e := range ip.c.logs[0].Index {
			if e.DataOffset == from.off && int(e.Vol) == from.vol {
				if back := 2 * t.Sub(e.Stamp); back > 0 {
					ip.from = ip.windowFrom(t, pl, back)
				}
				break
			}
		}
	}
	ip.startLazy(want)
}

// restart gives up a windowed walk for one from the archive's start,
// read whole (finish's way for a walk with records left unread).
func (ip *interpolator) restart() {
	want := ip.abandon()
	ip.from = nil
	_ = ip.load(want)
}

// abandon stops the windowed walk and forgets what it read, returning
// the metrics it read.
func (ip *interpolator) abandon() map[pcp.PMID]*imetric {
	if ip.lazy != nil {
		ip.lazy.stop()
		ip.lazy = nil
	}
	want := ip.windowed
	ip.forget(want)
	return want
}
