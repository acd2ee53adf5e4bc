package pmapi

import (
	"math"
	"sort"
	"unsafe"

	"github.com/gopcp/gopcp/pcp"
)

// chunked is a list built by appending one at a time, in chunks of at
// most chunkLen (the first grows as a slice does): a slice grown over a
// whole archive allocated about five times its final size, as append
// grows large slices by a quarter and no collection runs in a short
// replay to take the old arrays back (pmval -a over 2,527 records of
// the Linux agent: 1.05 MB for 300 KB of values, a third of what the
// run allocated). Every chunk but the last is full.
type chunked[T any] struct {
	c [][]T
	n int
}

const chunkLen = 256

func (l *chunked[T]) add(v T) {
	k := len(l.c)
	if k == 0 || len(l.c[k-1]) == chunkLen {
		var c []T
		if k > 0 {
			c = make([]T, 0, chunkLen)
		}
		l.c = append(l.c, c)
		k++
	}
	l.c[k-1] = append(l.c[k-1], v)
	l.n++
}

// at is the i'th element added.
func (l *chunked[T]) at(i int) *T { return &l.c[i/chunkLen][i%chunkLen] }

// search is the first index whose element f is true of, len for none,
// for an f that is false and then true along the list (sort.Search):
// the chunk first, by its last element, then inside it.
func (l *chunked[T]) search(f func(*T) bool) int {
	k := sort.Search(len(l.c), func(k int) bool { return f(&l.c[k][len(l.c[k])-1]) })
	if k == len(l.c) {
		return l.n
	}
	c := l.c[k]
	return k*chunkLen + sort.Search(len(c), func(i int) bool { return f(&c[i]) })
}

// lastWhere is the last index whose element f is true of, -1 for none,
// looked for from the end.
func (l *chunked[T]) lastWhere(f func(*T) bool) int {
	i := l.n - 1
	for i >= 0 && !f(l.at(i)) {
		i--
	}
	return i
}

// timeList is a list of times in order.
type timeList struct{ chunked[float64] }

// atOrAfter is the index of the first time at or after t.
func (l *timeList) atOrAfter(t float64) int {
	return l.search(func(x *float64) bool { return *x >= t })
}

// lastBefore is the latest time before u, -Inf for none.
func (l *timeList) lastBefore(u float64) float64 {
	if i := l.lastWhere(func(x *float64) bool { return *x < u }); i >= 0 {
		return *l.at(i)
	}
	return math.Inf(-1)
}

// sample is one value of an instance's history and its time, 16 bytes
// where a pcp.Value and a time took 48 (and a pointer to the block 24:
// three quarters of pmval -a's history over the 100 MB archive went on
// floats of 4 bytes and their pointers). blk packs the value's block
// type and length as the wire has them (8 and 24 bits); x is the value
// itself when the block is empty (an insitu value, with the type 0), the
// bytes of a block of at most 4, or where a longer one is in the
// series' kept blocks (keptRef). The instance is the series'.
type sample struct {
	t   float64
	x   uint32
	blk uint32
}

// wideBlock marks a sample whose value does not pack (a type or length
// the wire cannot carry, a block with a non-zero LVal beside it, or a
// long block not in the kept blocks, so none read from an archive): the
// value is in the series' wide map.
const wideBlock = ^uint32(0)

// inlineMax is the longest block a sample holds in x.
const inlineMax = 4

// iseries is one instance's values by time.
type iseries struct {
	s    chunked[sample]
	wide map[int]pcp.Value
	// kept is the interpolator's store of blocks longer than inlineMax
	// (nil: such blocks are wide)
	kept *keptBlocks
	// hint is where the last search for a time ended (after): a
	// replay's fetches move on a little at a time, so the next one
	// looks there first, instead of a binary search per instance and
	// fetch (a third of pmval's CPU over hundreds of processes)
	hint int
}

// add appends v at time t; a block longer than inlineMax must be the
// one last kept in the series' kept blocks, or its own copy.
func (is *iseries) add(t float64, v pcp.Value) {
	s := sample{t: t, blk: wideBlock}
	n, typ := len(v.Block.Data), v.Block.Type
	if typ >= 0 && typ <= 0xff && n <= pcp.MaxValueLen-pcp.ValueHeaderSize {
		blk := uint32(typ)<<24 | uint32(n)
		switch {
		case n == 0:
			s.x, s.blk = uint32(v.LVal), blk
		case v.LVal != 0:
		case n <= inlineMax:
			copy(unsafe.Slice((*byte)(unsafe.Pointer(&s.x)), inlineMax), v.Block.Data)
			s.blk = blk
		default:
			if ref, ok := is.kept.refOf(v.Block.Data); ok {
				s.x, s.blk = ref, blk
			}
		}
	}
	if s.blk == wideBlock {
		if is.wide == nil {
			is.wide = map[int]pcp.Value{}
		}
		is.wide[is.s.n] = v
	}
	is.s.add(s)
}

// len is the number of values.
func (is *iseries) len() int { return is.s.n }

// time is the time of the i'th value.
func (is *iseries) time(i int) float64 { return is.s.at(i).t }

// value is the i'th value, with no instance.
func (is *iseries) value(i int) pcp.Value {
	s := is.s.at(i)
	if s.blk == wideBlock {
		return is.wide[i]
	}
	var v pcp.Value
	v.Block.Type = pcp.Type(s.blk >> 24)
	switch n := int(s.blk & pcp.MaxValueLen); {
	case n == 0:
		v.LVal = int32(s.x)
	case n <= inlineMax:
		v.Block.Data = unsafe.Slice((*byte)(unsafe.Pointer(&s.x)), n)
	default:
		v.Block.Data = is.kept.at(s.x, n)
	}
	return v
}

// after is the index of the first of is's times after t.
func (is *iseries) after(t float64) int {
	n := is.s.n
	h := min(is.hint, n)
	// on from the hint, a few steps
	for k := 0; k < 4 && h < n && is.time(h) <= t; k++ {
		h++
	}
	if (h == n || is.time(h) > t) && (h == 0 || is.time(h-1) <= t) {
		is.hint = h
		return h
	}
	h = is.s.search(func(s *sample) bool { return s.t > t })
	is.hint = h
	return h
}

// atOrAfter is the index of the first of is's times at or after t.
func (is *iseries) atOrAfter(t float64) int {
	return is.s.search(func(s *sample) bool { return s.t >= t })
}

// lastBefore is the latest of is's times before u, -Inf for none.
func (is *iseries) lastBefore(u float64) float64 {
	if i := is.s.lastWhere(func(s *sample) bool { return s.t < u }); i >= 0 {
		return is.time(i)
	}
	return math.Inf(-1)
}
