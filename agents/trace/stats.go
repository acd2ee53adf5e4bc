package trace

import (
	"errors"
	"slices"

	"github.com/gopcp/gopcp/trace"
)

// key names a tag of one type: the same tag may be a point and a counter,
// two instances in two domains.
type key struct {
	tag string
	typ trace.Type
}

// entry is what the agent knows of a tag since it started (or since the
// last reset): pmdatrace's summary table.
type entry struct {
	key
	id     int32
	taglen uint8   // the tag length its first PDU declared
	count  uint64  // every datum seen
	total  float64 // transactions: their summed times
	value  float64 // observations and counters: the last value
}

// bucket holds one interval's data for a tag.
type bucket struct {
	count         int64
	min, max, sum float64
}

// add folds in a minimum, maximum and sum with C's comparisons, which
// pass over a NaN where Go's min and max would take it.
func (b *bucket) add(lo, hi, sum float64) {
	if lo < b.min {
		b.min = lo
	}
	if hi > b.max {
		b.max = hi
	}
	b.sum += sum
}

// window is a tag's data over the historical buckets.
type window = bucket

// stats is the agent's data: the summary of every tag, the instance
// domains in arrival order, and the ring of per-interval buckets, the
// working one being rpos. It follows pmdatrace's rules: a tag keeps its
// instance number across a reset, a window figure is computed from the
// buckets other than the working one, and computed once per interval.
// Not safe for concurrent use: the agent holds its lock.
type stats struct {
	maxTags    int
	maxEntries int // bucket entries over the whole ring
	nEntries   int

	entries map[key]*entry
	indoms  [5][]*entry // by trace type, in arrival order
	unsort  [5]bool     // an instance number came back: sort by number
	history map[key]int32
	nextID  [5]int32

	ring []map[key]*bucket
	rpos int

	win      map[key]window
	winValid bool
}

// errTooManyTags refuses a new tag beyond the bound.
var errTooManyTags = errors.New("too many tags")

// errTooManyEntries refuses a datum that needs a bucket entry beyond the
// ring's bound.
var errTooManyEntries = errors.New("too many tags in the window's buckets")

// errTagLength refuses a datum whose declared tag length differs from
// the first one's, as pmdatrace does.
var errTagLength = errors.New("tag length differs from the tag's first datum")

func newStats(buckets, maxTags, maxEntries int) *stats {
	s := &stats{maxTags: maxTags, maxEntries: maxEntries, entries: map[key]*entry{}, history: map[key]int32{}}
	s.ring = make([]map[key]*bucket, buckets+1) // and the working one
	for i := range s.ring {
		s.ring[i] = map[key]*bucket{}
	}
	return s
}

// record adds one datum.
func (s *stats) record(d trace.Data) error {
	k := key{d.Tag, d.Type}
	e := s.entries[k]
	w := s.ring[s.rpos]
	b := w[k]
	if b == nil && s.nEntries >= s.maxEntries {
		return errTooManyEntries
	}
	if e == nil {
		if len(s.entries) >= s.maxTags {
			return errTooManyTags
		}
		e = &entry{key: k, taglen: d.TagLen, count: 1, total: d.Value, value: d.Value}
		if id, ok := s.history[k]; ok {
			e.id = id
			s.unsort[d.Type] = true
		} else {
			s.nextID[d.Type]++
			e.id = s.nextID[d.Type]
		}
		s.entries[k] = e
		s.indoms[d.Type] = append(s.indoms[d.Type], e)
	} else {
		if e.taglen != d.TagLen {
			return errTagLength
		}
		e.count++
		switch d.Type {
		case trace.TypeTransact:
			e.total += d.Value
		case trace.TypeObserve, trace.TypeCounter:
			e.value = d.Value
		}
	}
	if b == nil {
		w[k] = &bucket{count: 1, min: d.Value, max: d.Value, sum: d.Value}
		s.nEntries++
	} else {
		b.count++
		if d.Type == trace.TypeTransact {
			b.add(d.Value, d.Value, d.Value)
		}
	}
	return nil
}

// tick ends the working interval: the oldest bucket is emptied and
// becomes the working one.
func (s *stats) tick() {
	s.rpos = (s.rpos + 1) % len(s.ring)
	s.nEntries -= len(s.ring[s.rpos])
	clear(s.ring[s.rpos])
	s.winValid = false
}

// reset forgets every tag and bucket, keeping the instance numbers given
// so far for the tags' return (within the bound).
func (s *stats) reset() {
	for k, e := range s.entries {
		if len(s.history) < s.maxTags {
			s.history[k] = e.id
		}
	}
	clear(s.entries)
	for i := range s.indoms {
		s.indoms[i] = nil
		s.unsort[i] = false
	}
	for _, b := range s.ring {
		clear(b)
	}
	s.nEntries = 0
	s.winValid = false
}

// summarise computes the window figures from the historical buckets, in
// ring order as pmdatrace sums them, once per interval.
func (s *stats) summarise() {
	if s.winValid {
		return
	}
	if s.win == nil {
		s.win = map[key]window{}
	}
	clear(s.win)
	for i, b := range s.ring {
		if i == s.rpos {
			continue
		}
		for k, v := range b {
			w, ok := s.win[k]
			if !ok {
				s.win[k] = *v
				continue
			}
			w.count += v.count
			if k.typ == trace.TypeTransact {
				w.add(v.min, v.max, v.sum)
			}
			s.win[k] = w
		}
	}
	s.winValid = true
}

// instances is a type's instance domain, sorted by number once a number
// has come back after a reset, as pmdatrace sorts it.
func (s *stats) instances(t trace.Type) []*entry {
	if s.unsort[t] {
		slices.SortStableFunc(s.indoms[t], func(a, b *entry) int { return int(a.id - b.id) })
		s.unsort[t] = false
	}
	return s.indoms[t]
}

// inWindow counts a type's tags with data in the window.
func (s *stats) inWindow(t trace.Type) int {
	n := 0
	for k := range s.win {
		if k.typ == t {
			n++
		}
	}
	return n
}
