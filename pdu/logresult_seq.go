package pdu

import (
	"encoding/binary"
	"slices"

	"github.com/gopcp/gopcp/pcp"
)

// picker is the test of a value set's PMID a selecting decoder keeps
// it by: a short sorted list looked through in place (a call through a
// func value for each of the 1,300 sets of each record was a tenth of
// pmval's run over an archive of the Linux agent), or the caller's func.
type picker struct {
	ids  []pcp.PMID
	keep func(pcp.PMID) bool
}

func (p *picker) has(pmid pcp.PMID) bool {
	if p.keep != nil {
		return p.keep(pmid)
	}
	if len(p.ids) > 8 {
		_, ok := slices.BinarySearch(p.ids, pmid)
		return ok
	}
	for _, id := range p.ids {
		if id == pmid {
			return true
		}
	}
	return false
}

// selectSeq is the selecting decoder's loop for the records libpcp
// writes: each value's block follows the one before it, in the order of
// the pairs, from the end of the value sets to the end of the record.
// Such a record passes every check the general loop makes (a block
// inside the record, at least a header long, the lowest where the sets
// end, the padded blocks adding up to the rest of the record) when the
// offsets chain and the chain ends at the record's end, and checking
// that is one comparison a block instead of a bound, a minimum and a
// sum: the walk over every block of every set was most of pmval's time
// on a large archive. It gives the kept sets (their pairs not yet
// swapped for blocks), the offset where the sets end and the number of
// blocks, and ok false for any record that is not such a chain, which
// the general loop then reads from the start to find what is wrong, or
// that it is not wrong at all.
func selectSeq(b []byte, off int, n int32, sets []pcp.ValueSet, p *picker) (out []pcp.ValueSet, end, blocks int, ok bool) {
	next := int64(-1) // where the next block must be: -1 before the first
	first := int64(0)
	for i := int32(0); i < n; i++ {
		if len(b)-off < setHeader {
			return sets, 0, 0, false
		}
		h := b[off : off+setHeader]
		pmid := pcp.PMID(binary.BigEndian.Uint32(h))
		numval := int32(binary.BigEndian.Uint32(h[4:]))
		valfmt := pcp.ValInSitu
		var pairs []byte
		if numval > 0 {
			if len(b)-off < setHeader+valFmtSize {
				return sets, 0, 0, false
			}
			valfmt = pcp.ValFmt(binary.BigEndian.Uint32(b[off+setHeader:]))
			start := off + setHeader + valFmtSize
			if uint32(valfmt) > uint32(pcp.ValSPtr) || int64(numval)*valueSize > int64(len(b)-start) {
				return sets, 0, 0, false
			}
			pairs = b[start : start+int(numval)*valueSize]
			off = start + len(pairs)
			if valfmt != pcp.ValInSitu {
				for j := 4; j < len(pairs); j += valueSize {
					o := int64(binary.BigEndian.Uint32(pairs[j:])) * 4
					if o != next {
						if next >= 0 {
							return sets, 0, 0, false
						}
						first = o
					}
					if o+pcp.ValueHeaderSize > int64(len(b)) {
						return sets, 0, 0, false
					}
					vlen := int64(binary.BigEndian.Uint32(b[o:]) & pcp.MaxValueLen)
					if vlen < pcp.ValueHeaderSize {
						return sets, 0, 0, false
					}
					next = o + (vlen+3)&^3
				}
				blocks += int(numval)
			}
		} else {
			off += setHeader
		}
		if !p.has(pmid) {
			continue
		}
		if len(sets) < cap(sets) {
			sets = sets[:len(sets)+1]
		} else {
			sets = append(sets, pcp.ValueSet{})
		}
		s := &sets[len(sets)-1]
		s.PMID, s.NumVal, s.ValFmt = pmid, numval, valfmt
		s.Values = s.Values[:0]
		if nv := len(pairs) / valueSize; nv > 0 {
			s.Values = slices.Grow(s.Values, nv)[:nv]
			decodePairs(s.Values, pairs)
		}
	}
	if blocks == 0 {
		return sets, off, 0, off == len(b)
	}
	return sets, off, blocks, first == int64(off) && next == int64(len(b))
}
