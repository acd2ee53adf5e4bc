package pdu

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/gopcp/gopcp/pcp"
)

// DecodeLogRecordSelectInto is DecodeLogRecordInto for a reader that
// wants some metrics only: the value sets whose PMID keep rejects are
// left out of r, and only the kept values' blocks are copied and
// swapped. The record's layout is checked as DecodeLogRecordInto checks
// it (every set's header and pairs, every block's place and length, the
// blocks tiling the rest of the record); what is inside a rejected
// block (an event array's records, a number's size) is not looked at.
// It returns
// the record's count of value sets, 0 for a <mark> record (which a
// record with none kept is not).
//
// An interpolating reader of a few metrics in an archive of a thousand
// decoded every value of every record and then looked most of them up
// in vain: a 100 MB archive of the Linux agent's metrics cost pmval more
// CPU than libpcp's whole run.
func DecodeLogRecordSelectInto(r *pcp.Result, buf []byte, v3 bool, keep func(pcp.PMID) bool) (int32, error) {
	return decodeLogRecordSelect(r, buf, v3, &picker{keep: keep})
}

// DecodeLogRecordSelectPMIDsInto is DecodeLogRecordSelectInto keeping
// the sets of the metrics in ids, which is sorted.
func DecodeLogRecordSelectPMIDsInto(r *pcp.Result, buf []byte, v3 bool, ids []pcp.PMID) (int32, error) {
	return decodeLogRecordSelect(r, buf, v3, &picker{ids: ids})
}

func decodeLogRecordSelect(r *pcp.Result, buf []byte, v3 bool, keep *picker) (int32, error) {
	d := bodyDecoder(buf, TypeResult)
	if len(buf) < HeaderSize {
		d.Fail(0, "record shorter than its prefix")
		return 0, d.Err
	}
	r.Timestamp = logStamp(&d, v3)
	at := d.Off
	n := d.I32("numpmid")
	r.Sets = r.Sets[:0]
	if d.Err != nil {
		return 0, d.Err
	}
	selectValueSets(&d, r, at, n, keep)
	return n, d.Err
}

// selectValueSets is decodeValueSetsN keeping the sets keep accepts.
func selectValueSets(d *decoder, r *pcp.Result, at int, n int32, keep *picker) {
	if n < 0 || int64(n)*setHeader > int64(d.Remaining()) {
		d.Fail(at, fmt.Sprintf("numpmid %d cannot fit in %d bytes", n, d.Remaining()))
		return
	}
	sets := r.Sets[:0]
	blocks := 0
	bc := blockCheck{lowest: len(d.B)}
	i := int32(0)
	if !slowSelect {
		i = selectFast(d, &sets, &blocks, &bc, n, keep)
	}
	for ; i < n && d.Err == nil; i++ {
		at := d.Off + setHeader
		var pmid pcp.PMID
		var numval int32
		valfmt := pcp.ValInSitu
		if h := d.B[d.Off:]; len(h) >= setHeader+valFmtSize {
			// the words read directly, as decodeValueSetsN reads them
			pmid = pcp.PMID(binary.BigEndian.Uint32(h))
			numval = int32(binary.BigEndian.Uint32(h[4:]))
			d.Off += setHeader
			if numval > 0 {
				valfmt = pcp.ValFmt(binary.BigEndian.Uint32(h[8:]))
				d.Off += valFmtSize
			}
		} else {
			pmid = pcp.PMID(d.U32("pmid"))
			numval = d.I32("numval")
			if numval > 0 {
				valfmt = pcp.ValFmt(d.I32("valfmt"))
			}
		}
		if d.Err != nil {
			break
		}
		if numval > 0 {
			if valfmt < pcp.ValInSitu || valfmt > pcp.ValSPtr {
				d.Fail(at, fmt.Sprintf("pmid %d valfmt %d", pmid, valfmt))
				break
			}
			if int64(numval)*valueSize > int64(d.Remaining()) {
				d.Fail(at-4, fmt.Sprintf("numval %d cannot fit in %d bytes", numval, d.Remaining()))
				break
			}
		}
		nv := max(int(numval), 0)
		pairs := d.B[d.Off : d.Off+nv*valueSize]
		d.Off += len(pairs)
		if valfmt != pcp.ValInSitu && nv > 0 {
			blocks += nv
			if !bc.add(d, pmid, pairs) {
				break
			}
		}
		if !keep.has(pmid) {
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
		if nv > 0 {
			s.Values = slices.Grow(s.Values, nv)[:nv]
			decodePairs(s.Values, pairs)
		}
	}
	r.Sets = sets
	if d.Err != nil {
		return
	}
	if blocks == 0 {
		d.Done()
		return
	}
	if region := d.Off; bc.lowest != region || region+bc.total != len(d.B) {
		d.Fail(region, fmt.Sprintf("value blocks cover %d bytes from %d; the region is %d bytes from %d", bc.total, bc.lowest, len(d.B)-region, region))
		return
	}
	selectBlocks(d, r)
}

// slowSelect turns selectFast off, for tests that compare the two loops.
var slowSelect = false

// selectFast is the loop of selectValueSets for sets that pass every
// check, with the decoder's offset and the block tally in locals: it
// stops at the first set that is cut short or fails a check, leaving
// the offset at that set's start for selectValueSets' own loop to read
// it again and report the fault as it does. It returns the number of
// sets read. The loop over every set of every record was most of
// pmval's time on a large archive.
func selectFast(d *decoder, setsp *[]pcp.ValueSet, blocks *int, bc *blockCheck, n int32, keep *picker) int32 {
	b := d.B
	off := d.Off
	lowest, total := bc.lowest, bc.total
	sets := *setsp
	i := int32(0)
	for ; i < n; i++ {
		if len(b)-off < setHeader+valFmtSize {
			break
		}
		h := b[off : off+setHeader+valFmtSize]
		pmid := pcp.PMID(binary.BigEndian.Uint32(h))
		numval := int32(binary.BigEndian.Uint32(h[4:]))
		valfmt := pcp.ValInSitu
		var pairs []byte
		if numval > 0 {
			valfmt = pcp.ValFmt(binary.BigEndian.Uint32(h[8:]))
			if uint32(valfmt) > uint32(pcp.ValSPtr) || int64(numval)*valueSize > int64(len(b)-off-setHeader-valFmtSize) {
				break
			}
			start := off + setHeader + valFmtSize
			pairs = b[start : start+int(numval)*valueSize]
			if valfmt != pcp.ValInSitu {
				lo, tot, ok := lowest, total, true
				for j := 0; j+valueSize <= len(pairs); j += valueSize {
					o := uint64(binary.BigEndian.Uint32(pairs[j+4:])) * 4
					if o+pcp.ValueHeaderSize > uint64(len(b)) {
						ok = false
						break
					}
					vlen := int(binary.BigEndian.Uint32(b[o:]) & pcp.MaxValueLen)
					if vlen < pcp.ValueHeaderSize || int(o)+vlen > len(b) {
						ok = false
						break
					}
					lo = min(lo, int(o))
					tot += align4(vlen)
				}
				if !ok || tot > len(b) {
					break
				}
				lowest, total = lo, tot
				*blocks += int(numval)
			}
			off = start + len(pairs)
		} else {
			off += setHeader
		}
		if !keep.has(pmid) {
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
	d.Off = off
	bc.lowest, bc.total = lowest, total
	*setsp = sets
	return i
}

// blockCheck is decodeBlocks' check of the region of blocks, made from
// the record's own pairs as the sets go by, so that rejected sets are
// checked too: every block inside the record, the lowest where the value
// sets end and the padded blocks adding up to the rest of the record
// (both known, and compared, only once the sets are read).
type blockCheck struct {
	lowest, total int
}

// add takes in the blocks of one set's pairs, or reports the first that
// lies outside the record and returns false.
func (bc *blockCheck) add(d *decoder, pmid pcp.PMID, pairs []byte) bool {
	b := d.B
	for j := 0; j+valueSize <= len(pairs); j += valueSize {
		o := int64(binary.BigEndian.Uint32(pairs[j+4:])) * 4
		if o+pcp.ValueHeaderSize > int64(len(b)) {
			d.Fail(d.Off, fmt.Sprintf("pmid %d value %d: block offset %d outside the PDU of %d", pmid, j/valueSize, o, len(b)))
			return false
		}
		vlen := int(binary.BigEndian.Uint32(b[o:]) & pcp.MaxValueLen)
		if vlen < pcp.ValueHeaderSize || int(o)+vlen > len(b) {
			d.Fail(int(o), fmt.Sprintf("pmid %d value %d: block length %d at %d in PDU of %d", pmid, j/valueSize, vlen, o, len(b)))
			return false
		}
		bc.lowest = min(bc.lowest, int(o))
		bc.total += align4(vlen)
	}
	if bc.total > len(b) {
		d.Fail(d.Off, fmt.Sprintf("value blocks exceed the %d bytes of the PDU", len(b)))
		return false
	}
	return true
}

// selectBlocks gives each kept value held in a block a copy of it in
// r's arena, swapped, once checkBlocks has passed the record.
func selectBlocks(d *decoder, r *pcp.Result) {
	size := 0
	for i := range r.Sets {
		s := &r.Sets[i]
		if s.NumVal <= 0 || s.ValFmt == pcp.ValInSitu {
			continue
		}
		for _, v := range s.Values {
			word := binary.BigEndian.Uint32(d.B[int(uint32(v.LVal))*4:])
			size += align4(int(word & pcp.MaxValueLen))
		}
	}
	arena := r.Arena(size)
	slot := 0
	for i := range r.Sets {
		s := &r.Sets[i]
		if s.NumVal <= 0 || s.ValFmt == pcp.ValInSitu {
			continue
		}
		for j := range s.Values {
			v := &s.Values[j]
			o := int(uint32(v.LVal)) * 4
			word := binary.BigEndian.Uint32(d.B[o:])
			vtype, vlen := pcp.Type(word>>24), int(word&pcp.MaxValueLen)
			data := arena[slot+pcp.ValueHeaderSize : slot+vlen : slot+vlen]
			copy(data, d.B[o+pcp.ValueHeaderSize:o+vlen])
			slot += align4(vlen)
			v.LVal = 0
			v.Block.Type = vtype
			v.Block.Data = data
			if err := swapBlock(data, vtype, binary.BigEndian); err != nil {
				d.Fail(o, fmt.Sprintf("pmid %d value %d: %v", s.PMID, j, err))
				return
			}
		}
	}
	d.Off = len(d.B)
}

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
