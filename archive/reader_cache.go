package archive

import (
	"cmp"
	"slices"

	"github.com/gopcp/gopcp/internal/wire"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// recordCache keeps the full decoding of the records a Reader with a
// Select reads more than once. pminfo -f on an archive places the reader
// at the start for every fetch (as PCP's does, with pmSetMode) and asks
// for a batch of metrics, or one metric of a derived metric's operands,
// each time: on a 100 MB archive of the Linux agent the first two
// records were each decoded 1,380 times, 23 ms of a 30 ms run. A record
// read a second time is decoded whole once more, into the cache, and
// later reads of it copy the chosen sets from there. A reader going
// through the records once, as interpolation does, never fills it.
type recordCache struct {
	slots [2]cachedRecord // the two records met last
	next  int             // the slot a new record takes
}

// maxCachedRecord is the largest record (with its decoding prefix) the
// cache takes. A whole decoding holds 40 bytes a value against 8 to 20
// on disk: pminfo -a -f over a QA archive of 180 KB records of process
// metrics allocated 1.2 MB more with every record cached, for a run
// that was already a fifth of PCP's CPU.
const maxCachedRecord = 64 << 10

// cachedRecord is one record: where it is and, once read twice, its
// decoding.
type cachedRecord struct {
	used       bool
	vol, start int
	full       pcp.Result
	ok         bool // full holds the record
	// index is full's sets by PMID (then position), made at the first
	// read that names its metrics
	index []setAt
	picks []int // scratch: the positions of the sets a read takes
}

// setAt is a value set's PMID and its position in the record.
type setAt struct {
	pmid pcp.PMID
	pos  int
}

// decodeCached decodes the record at start in volume vol, whose frame
// is frame (see decode), into res, from the cache when the record is
// there.
func (r *Reader) decodeCached(res *pcp.Result, frame []byte, vol, start int) error {
	if r.keep == nil || len(frame) > maxCachedRecord {
		return r.decode(res, frame)
	}
	c := &r.cache
	var slot *cachedRecord
	for i := range c.slots {
		if s := &c.slots[i]; s.used && s.vol == vol && s.start == start {
			slot = s
		}
	}
	if slot != nil && slot.ok {
		r.copyCached(res, slot)
		return nil
	}
	if err := r.decode(res, frame); err != nil {
		if slot != nil {
			slot.used = false
		}
		return err
	}
	if slot == nil {
		slot = &c.slots[c.next]
		c.next = (c.next + 1) % len(c.slots)
		slot.used, slot.vol, slot.start, slot.ok = true, vol, start, false
		return nil
	}
	// read a second time: decoded whole for the reads to come (the
	// layout checks are those the selective decoding has just passed)
	slot.ok = pdu.DecodeLogRecordInto(&slot.full, frame, r.a.Version() == Version3) == nil
	slot.index = slot.index[:0]
	return nil
}

// copyCached gives res the sets of the cached record that the reader's
// Select keeps, in the record's order, their blocks copied into res's own
// arena as a decoding puts them.
func (r *Reader) copyCached(res *pcp.Result, slot *cachedRecord) {
	full := &slot.full
	picks := slot.picks[:0]
	if r.ids != nil && len(r.ids) < len(full.Sets)/8 {
		if len(slot.index) == 0 && len(full.Sets) > 0 {
			for i := range full.Sets {
				slot.index = append(slot.index, setAt{full.Sets[i].PMID, i})
			}
			slices.SortFunc(slot.index, func(a, b setAt) int { return cmp.Or(cmp.Compare(a.pmid, b.pmid), cmp.Compare(a.pos, b.pos)) })
		}
		for _, id := range r.ids {
			k, _ := slices.BinarySearchFunc(slot.index, id, func(e setAt, id pcp.PMID) int { return cmp.Compare(e.pmid, id) })
			for ; k < len(slot.index) && slot.index[k].pmid == id; k++ {
				picks = append(picks, slot.index[k].pos)
			}
		}
		slices.Sort(picks)
	} else {
		for i := range full.Sets {
			if r.keep(full.Sets[i].PMID) {
				picks = append(picks, i)
			}
		}
	}
	slot.picks = picks
	res.Timestamp = full.Timestamp
	size := 0
	for _, i := range picks {
		s := &full.Sets[i]
		if s.NumVal <= 0 || s.ValFmt == pcp.ValInSitu {
			continue
		}
		for _, v := range s.Values {
			size += wire.Align4(len(v.Block.Data))
		}
	}
	arena := res.Arena(size)
	sets := res.Sets[:0]
	for _, i := range picks {
		s := &full.Sets[i]
		if len(sets) < cap(sets) {
			sets = sets[:len(sets)+1]
		} else {
			sets = append(sets, pcp.ValueSet{})
		}
		o := &sets[len(sets)-1]
		o.PMID, o.NumVal, o.ValFmt = s.PMID, s.NumVal, s.ValFmt
		o.Values = append(slices.Grow(o.Values[:0], len(s.Values)), s.Values...)
		if s.NumVal <= 0 || s.ValFmt == pcp.ValInSitu {
			continue
		}
		for j := range o.Values {
			d := o.Values[j].Block.Data
			n := copy(arena, d)
			o.Values[j].Block.Data = arena[:n:n]
			arena = arena[wire.Align4(n):]
		}
	}
	res.Sets = sets
	r.sets = int32(len(full.Sets))
}
