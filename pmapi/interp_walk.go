package pmapi

import (
	"errors"
	"math"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/pcp"
)

// spot is a place in the context's data: an archive, a volume and a byte
// offset in it.
type spot struct {
	arch, vol int
	off       int64
}

func (a spot) after(b spot) bool {
	if a.arch != b.arch {
		return a.arch > b.arch
	}
	if a.vol != b.vol {
		return a.vol > b.vol
	}
	return a.off > b.off
}

// segment is a stretch of records libpcp can read through without
// meeting damage. An undamaged context is one segment; each damaged
// record ends one, and the next starts at the first temporal index entry
// beyond the damage (libpcp's way past it), taking in the records before
// that entry that can be read backwards from it.
type segment struct {
	first, last float64 // the times of its first and last records
	from, to    spot    // where its records start and end
	// damagedStart and damagedEnd say damage bounds it, not the start
	// or end of the data
	damagedStart, damagedEnd bool
}

// markRec is a <mark> record's time and those of the records either side
// of it, for PCP_IGNORE_MARK_RECORDS's gap (load).
type markRec struct {
	t, before, after float64
	// hasBefore and hasAfter say there is a record before and after
	hasBefore, hasAfter bool
}

// markNotes gathers the <mark>s of a walk with their neighbours' times:
// every record's time was kept for that (16 bytes a record, 40 KB of a
// 2,527-record replay grown to 117 KB by append), where only the
// <mark>s' neighbours are looked at.
type markNotes struct {
	marks   []markRec
	prev    float64
	hasPrev bool
	waiting bool // the last record was the last of marks
}

// note takes the next record in walk order.
func (n *markNotes) note(t float64, mark bool) {
	if n.waiting {
		m := &n.marks[len(n.marks)-1]
		m.after, m.hasAfter = t, true
		n.waiting = false
	}
	if mark {
		n.marks = append(n.marks, markRec{t: t, before: n.prev, hasBefore: n.hasPrev})
		n.waiting = true
	}
	n.prev, n.hasPrev = t, true
}

// walk reads every record libpcp can reach, in time order, giving each
// to fn. The first walk also notes the segments, the first damage and
// the <mark>s (those between archives included) with the times of the
// records either side.
func (ip *interpolator) walk(ids []pcp.PMID, fn func(t float64, r *pcp.Result, mark bool)) []markRec {
	first := !ip.scanned
	var notes markNotes
	var segs []segment
	var r pcp.Result
	cur := -1
	start := func(at spot, damaged bool) {
		segs = append(segs, segment{first: math.Inf(1), last: math.Inf(-1), from: at, to: at, damagedStart: damaged})
		cur = len(segs) - 1
	}
	emitRec := func(res *pcp.Result, mark bool) {
		t := ip.rel(res.Timestamp)
		s := &segs[cur]
		s.first, s.last = math.Min(s.first, t), math.Max(s.last, t)
		if first {
			notes.note(t, mark)
		}
		fn(t, res, mark)
	}
	emit := func(res *pcp.Result) { emitRec(res, len(res.Sets) == 0) }
	where := func(i int, rd *archive.Reader) spot {
		vol, off := rd.Position()
		return spot{i, vol, off}
	}
	for i, a := range ip.c.logs {
		rd := a.NewReader()
		// Only the wanted metrics' value sets are decoded: the records
		// are still all read and checked (damage is found where it
		// was), and a record without them is told from a <mark> by
		// the reader.
		rd.SelectPMIDs(ids)
		vol, off := rd.Position()
		if ip.from != nil && ip.from.arch == i {
			// a windowed walk (interp_window.go)
			vol, off = ip.from.vol, ip.from.off
		}
		if cur < 0 || segs[cur].damagedEnd {
			start(spot{i, vol, off}, false)
		}
		// The records are read from the start of the data, not from
		// where the temporal index places a reader: a damaged index
		// (an entry naming a missing volume, or a place inside a
		// record) spoils that placing, not the records.
		_ = rd.ReadFrom(archive.Forward, vol, off)
		err := rd.Fetch(&r)
		// used is the last index entry taken past damage: each damage
		// takes a later one, so the walk ends whatever the index says
		used := -1
		for {
			for err == nil {
				emitRec(&r, rd.Mark())
				segs[cur].to = where(i, rd)
				if ip.pause != nil && !ip.pause(ip.rel(r.Timestamp), segs[cur].to) {
					// abandoned (the context closed)
					rd.Close()
					return notes.marks
				}
				err = rd.Fetch(&r)
			}
			if errors.Is(err, pcp.ErrEOL) {
				break
			}
			// damage: libpcp reads no further this way
			segs[cur].to, segs[cur].damagedEnd = where(i, rd), true
			if ip.damage == nil && first {
				ip.damage = &interpDamage{err: err}
			}
			k := indexAfter(a, segs[cur].to, used+1)
			if k < 0 {
				break
			}
			used = k
			e := a.Index[k]
			start(spot{i, int(e.Vol), e.DataOffset}, true)
			damaged, n := ip.readBack(a, i, e, segs[cur-1].to, &segs[cur], emit)
			segs[cur].damagedStart = damaged
			if err = rd.ReadFrom(archive.Forward, int(e.Vol), e.DataOffset); err == nil {
				err = rd.Fetch(&r)
			}
			if err == nil && n == 0 && !damaged {
				// the entry lies past a cut volume's end: reading back
				// from the first record after it crosses into that
				// volume's damaged tail
				segs[cur].damagedStart = backIntoDamage(a, where(i, rd))
			}
		}
		rd.Close()
		if !segs[cur].damagedEnd && i == len(ip.c.logs)-1 {
			// an index entry past the end of a cut last volume is a
			// place libpcp can be put, from which it reads nothing
			if k := indexAfter(a, segs[cur].to, 0); k >= 0 && a.PastEnd(a.Index[k]) {
				e := a.Index[k]
				start(spot{i, int(e.Vol), e.DataOffset}, false)
			}
		}
		if first && !segs[cur].damagedEnd && i < len(ip.c.logs)-1 {
			if end, err := a.End(); err == nil {
				t := ip.rel(addNsec(end, 1000000))
				notes.note(t, true)
				segs[cur].last = math.Max(segs[cur].last, t)
			}
		}
	}
	if first {
		ip.segments = segs
	}
	return notes.marks
}

// indexAfter is the first temporal index entry of a, from entry from on,
// beyond the damage at d, -1 for none. Entries naming a volume that
// cannot be opened are passed over, as libpcp's VolSkip passes them.
func indexAfter(a *archive.Archive, d spot, from int) int {
	for k := max(from, 0); k < len(a.Index); k++ {
		e := a.Index[k]
		if (spot{d.arch, int(e.Vol), e.DataOffset}).after(d) && a.HasVolume(int(e.Vol)) {
			return k
		}
	}
	return -1
}

// readBack gives emit, in time order, the records between damage at d
// and index entry e that libpcp reads backwards from e, and moves the
// segment's start to the first of them. It reports whether reading
// backwards meets the damage (rather than the end of a cut volume).
func (ip *interpolator) readBack(a *archive.Archive, i int, e archive.IndexEntry, d spot, s *segment, emit func(*pcp.Result)) (damaged bool, n int) {
	back := a.NewReader()
	defer back.Close()
	if back.ReadFrom(archive.Backward, int(e.Vol), e.DataOffset) != nil {
		return true, 0
	}
	var early []*pcp.Result
	damaged = true
	for {
		var res pcp.Result
		if err := back.Next(&res); err != nil {
			damaged = !errors.Is(err, pcp.ErrEOL)
			break
		}
		vol, off := back.Position()
		at := spot{i, vol, off}
		if !at.after(d) {
			break
		}
		early = append(early, cloneResult(&res))
		s.from = at
	}
	for j := len(early) - 1; j >= 0; j-- {
		emit(early[j])
	}
	return damaged, len(early)
}

// backIntoDamage reports whether reading backwards past the record that
// ends at p meets damage rather than the start of the data.
func backIntoDamage(a *archive.Archive, p spot) bool {
	back := a.NewReader()
	defer back.Close()
	if back.ReadFrom(archive.Backward, p.vol, p.off) != nil {
		return false
	}
	var res pcp.Result
	if back.Next(&res) != nil {
		return false
	}
	err := back.Next(&res)
	return err != nil && !errors.Is(err, pcp.ErrEOL)
}

// cloneResult copies a record out of the reader's storage.
func cloneResult(r *pcp.Result) *pcp.Result {
	out := &pcp.Result{Timestamp: r.Timestamp, Sets: make([]pcp.ValueSet, len(r.Sets))}
	for k, vs := range r.Sets {
		vs.Values = append([]pcp.Value(nil), vs.Values...)
		for j := range vs.Values {
			vs.Values[j].Block.Data = append([]byte(nil), vs.Values[j].Block.Data...)
		}
		out.Sets[k] = vs
	}
	return out
}
