package pmapi

import (
	"iter"
	"math"
	"slices"

	"github.com/gopcp/gopcp/internal/startpages"
	"github.com/gopcp/gopcp/pcp"
)

// lazyScan reads the records of the interpolator's first walk only as
// far as the fetches need them, as libpcp's interpolation reads: pmval
// -s 1 over a 100 MB archive read all 2,527 records (62 ms of CPU
// against PCP's 4.5), and a replay at pmval's default interval, which
// libpcp answers from every record too, still read them all before the
// first value was written.
//
// It is used where a fetch answered from the records read so far is
// provably the answer the whole walk would give: one archive, forwards,
// no PCP_IGNORE_MARK_RECORDS (which needs the records after a <mark>),
// a placing that libpcp reads on from (not stuck, nor one that reads
// backwards into damage, nor at the end of the data), no damage met
// yet, and, for every instance a fetch at t asks for, a value or a
// <mark> read at or after t, a record read after t, and a record with
// values of each metric read at or after t. Damage in the records not
// yet read then ends a segment after those records, where libpcp's
// reading meets it only later too (pastDamage finds nothing at t). In
// every other case the walk is finished first and the fetch answered
// as before.
type lazyScan struct {
	next func() (struct{}, bool) // reads one more record; false at the end
	stop func()
	upTo float64 // the time of the latest record read
	read bool    // a record has been read
	at   spot    // where the walk reads next
	// horizon is covered's answer for pmids until another record is
	// read (horizonOK false)
	horizon   float64
	horizonOK bool
	pmids     []pcp.PMID
	// passed says a windowed walk (interp_window.go) has read up to the
	// place the index gives for the first fetch, at a record boundary
	passed bool
}

// noLazy turns lazy reading off, for tests that compare with it.
var noLazy = false

// lazyOK says whether the first walk may be read lazily (see lazyScan).
func (ip *interpolator) lazyOK() bool {
	return !noLazy && len(ip.c.logs) == 1 && ip.c.delta >= 0 && ip.c.opts.ignoreMarks == nil
}

// startLazy begins the first walk, for the metrics in want, reading
// nothing yet.
func (ip *interpolator) startLazy(want map[pcp.PMID]*imetric) {
	lz := &lazyScan{upTo: math.Inf(-1)}
	if ip.from != nil && ip.lazyPlaced != nil {
		lz.passed = *ip.from == ip.lazyPlaced.at
		ip.windowed = want
	}
	seq := func(yield func(struct{}) bool) {
		// grown once here, shallow, rather than copied deep in the walk
		// (a copy reads every frame's entries in the function table)
		startpages.GrowStack(true)
		ip.pause = func(t float64, at spot) bool {
			lz.upTo, lz.read, lz.at, lz.horizonOK = t, true, at, false
			if !lz.passed && ip.lazyPlaced != nil && at == ip.lazyPlaced.at {
				lz.passed = true
			}
			return yield(struct{}{})
		}
		_ = ip.load(want)
		ip.pause = nil
	}
	lz.next, lz.stop = iter.Pull(seq)
	ip.lazy = lz
}

// finish reads the rest of the first walk, ending lazy reading. The
// placing noted while reading lazily stays for pastDamage. A windowed
// walk starts again from the archive's start.
func (ip *interpolator) finish() {
	lz := ip.lazy
	if lz == nil {
		return
	}
	if ip.from != nil {
		ip.restart()
		return
	}
	for {
		if _, ok := lz.next(); !ok {
			break
		}
	}
	lz.stop()
	ip.lazy = nil
}

// close abandons a lazy walk, as the context closes.
func (ip *interpolator) close() {
	if ip.lazy != nil {
		ip.lazy.stop()
		ip.lazy = nil
	}
}

// cover reads records until a fetch at t of pmids can be answered from
// the records read (see lazyScan), or finishes the walk.
func (ip *interpolator) cover(pmids []pcp.PMID, t float64) {
	for ip.lazy != nil && !ip.covered(pmids, t) {
		ip.more()
	}
}

// more reads one more record, or finishes the walk at its end or at
// damage.
func (ip *interpolator) more() {
	_, ok := ip.lazy.next()
	switch {
	case !ok && ip.damage == nil && ip.from != nil && ip.lazy.passed:
		// a windowed walk read to the end: what it lacks is before
		// its start, checked at each fetch (priorsRead)
		ip.lazy.stop()
		ip.lazy = nil
	case !ok || ip.damage != nil:
		ip.finish()
	}
}

// placeLazy notes, at the first fetch that would look for damage, the
// placing pastDamage would make then, and reads on until the records
// read take in the place it names; it finishes the walk when libpcp
// cannot read on from there.
func (ip *interpolator) placeLazy() {
	if ip.lazy == nil || ip.seg >= 0 {
		return
	}
	if ip.lazyPlaced == nil {
		pl := ip.placing(ip.c.origin, ip.c.delta < 0)
		ip.lazyPlaced = &pl
	}
	pl := ip.lazyPlaced
	if pl.stuck || !math.IsNaN(pl.backFrom) || pl.atEnd {
		ip.finish()
		return
	}
	for ip.lazy != nil && pl.at.after(ip.lazy.at) {
		ip.more()
	}
	if ip.lazy != nil && ip.from != nil && !ip.lazy.passed {
		// the index entry the walk started at is not a record
		// boundary on the way to the placing: a damaged index
		ip.finish()
	}
}

// covered says whether the records read so far answer a fetch at t: the
// bounds it needs lie before the latest record read, so no record read
// later (none earlier in time) can change them.
func (ip *interpolator) covered(pmids []pcp.PMID, t float64) bool {
	lz := ip.lazy
	if !lz.read || lz.upTo <= t {
		return false
	}
	if !lz.horizonOK || !slices.Equal(lz.pmids, pmids) {
		lz.horizon = ip.horizon(pmids)
		lz.pmids = append(lz.pmids[:0], pmids...)
		lz.horizonOK = true
	}
	return t <= lz.horizon
}

// horizon is the latest time a fetch of pmids can be answered at from
// the records read: for a list of times (of <mark>s, of an instance's
// values, of a metric's records with values) a fetch at t finds its
// bound there when the list has a time at or after t and before the
// latest record's, that is, when t is at most the last such time.
// A <mark> bounds every instance; readsBadFmt looks at the first
// record with values of each metric at or after t.
func (ip *interpolator) horizon(pmids []pcp.PMID) float64 {
	upTo := ip.lazy.upTo
	h := math.Inf(1)
	marked := math.Inf(-1)
	for k := len(ip.marks) - 1; k >= 0; k-- {
		if ip.marks[k] < upTo {
			marked = ip.marks[k]
			break
		}
	}
	for _, id := range pmids {
		m := ip.metrics[id]
		if id == pcp.PMIDNull || m == nil || m.err != 0 {
			continue
		}
		insts := math.Inf(1)
		for _, is := range m.series {
			insts = min(insts, is.lastBefore(upTo))
		}
		h = min(h, m.valued.lastBefore(upTo), max(marked, insts))
	}
	return h
}
