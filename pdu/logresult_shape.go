package pdu

import (
	"encoding/binary"
	"slices"

	"github.com/gopcp/gopcp/pcp"
)

// Shape remembers the layout of the last record a selecting decoder
// read whole, so that the next record of the same layout is decoded
// with one masked comparison instead of the walk over its value sets.
//
// A logger writes the same metrics in the same order at every sample,
// so most records of an archive have the layout of the one before
// them: the same record length, count of value sets, and, set by set,
// the same PMID, count of values and value format, and for values in
// blocks the same block offsets and block header words. Every check
// the decoder makes of a record's layout (sets and pairs inside the
// record, formats, every block inside it and at least a header long,
// the blocks tiling the rest of the record), and which sets are kept,
// depends on those words only: a record whose words equal, at the same
// places, those of a record that passed passes too, with its kept sets
// at the same places (the places of words are themselves set by the
// words before them). The words that may differ (timestamps,
// instances, values, the bytes of blocks) are masked out; the kept
// values' blocks are copied and checked as the decoder does. Over an
// archive of the Linux agent (2,527 records of 1,300 sets) the layout
// changed 4 times, and the walk over every set and block was most of
// pmval's CPU.
//
// The zero Shape is ready for use; a Shape is for one reader.
type Shape struct {
	ok      bool
	v3      bool
	ids     []pcp.PMID // the selection it was made for
	size    int        // the record's length, with its prefix
	numpmid int32
	tmpl    []uint64 // the record's bytes, 8 at a time, little-endian
	// the masks of the record's first from bytes are kept a bit per
	// 4-byte word, 16 bits per 64-byte chunk (chunked: where the CPU has
	// AVX-512, whose compare takes them as its write mask), and mask
	// holds those of the words after them: comparing a 41 KB record from
	// memory waited on the 41 KB mask read beside it
	from     int
	cmask    []uint16
	mask     []uint64 // all ones over the words of its layout after from
	tail     uint32   // the last 4 bytes of a record of 8n+4 bytes
	tailMask uint32
	kept     []shapeSet
	misses   int // records in a row not of the layout
}

// shapeSet is a kept value set: its header and where its pairs are.
type shapeSet struct {
	pmid   pcp.PMID
	numval int32
	valfmt pcp.ValFmt
	pairs  int // offset of its pairs in the record
}

// maxShapeRecord bounds the records a Shape takes (two words of memory
// for every 8 bytes of record).
const maxShapeRecord = 1 << 20

// DecodeLogRecordSelectShapeInto is DecodeLogRecordSelectPMIDsInto
// using and updating s: a record of s's layout is decoded from s.
func DecodeLogRecordSelectShapeInto(r *pcp.Result, buf []byte, v3 bool, ids []pcp.PMID, s *Shape) (int32, error) {
	if s.ok && s.v3 == v3 && s.size == len(buf) && slices.Equal(s.ids, ids) && s.same(buf) {
		s.misses = 0
		return s.decode(r, buf, v3)
	}
	n, err := decodeLogRecordSelect(r, buf, v3, &picker{ids: ids})
	s.misses++
	// layouts that keep changing are learnt now and then only, so
	// that learning costs at most a little more than decoding
	learn := s.misses <= 4 || s.misses%64 == 0
	if err == nil && len(buf) <= maxShapeRecord && !slowShape && learn {
		s.learn(buf, v3, ids, n)
	}
	return n, err
}

// slowShape turns Shape off, and noChunks its chunks, for tests that
// compare with them.
var slowShape, noChunks = false, false

// same compares buf with the template under the mask.
func (s *Shape) same(buf []byte) bool {
	if chunksDiffer(buf[:s.from], s.tmpl[:s.from/8], s.cmask) {
		return false
	}
	n := len(s.mask)
	end := s.from + n*8
	a := sameWords(buf[s.from:end], s.tmpl[s.from/8:end/8], s.mask)
	if s.tailMask != 0 {
		a |= uint64((binary.LittleEndian.Uint32(buf[end:]) ^ s.tail) & s.tailMask)
	}
	return a == 0
}

// chunksDifferGo is chunksDiffer's answer in Go, for platforms without
// the vector loop and for tests.
func chunksDifferGo(b []byte, tmpl []uint64, km []uint16) bool {
	for c, m := range km {
		for i := range 16 {
			w := tmpl[c*8+i/2] >> (32 * (i % 2))
			if m&(1<<i) != 0 && binary.LittleEndian.Uint32(b[c*64+i*4:]) != uint32(w) {
				return true
			}
		}
	}
	return false
}

// sameWordsGo is the OR over the words of mask of (b's word ^ tmpl) &
// mask, four words a round into four sums: a third less CPU than one
// word a round over records of 41 KB.
func sameWordsGo(b []byte, tmpl, mask []uint64) uint64 {
	n := len(mask)
	tmpl = tmpl[:n]
	b = b[:n*8]
	var a0, a1, a2, a3 uint64
	i := 0
	for ; i+4 <= n; i += 4 {
		w := b[i*8 : i*8+32]
		a0 |= (binary.LittleEndian.Uint64(w) ^ tmpl[i]) & mask[i]
		a1 |= (binary.LittleEndian.Uint64(w[8:]) ^ tmpl[i+1]) & mask[i+1]
		a2 |= (binary.LittleEndian.Uint64(w[16:]) ^ tmpl[i+2]) & mask[i+2]
		a3 |= (binary.LittleEndian.Uint64(w[24:]) ^ tmpl[i+3]) & mask[i+3]
	}
	for ; i < n; i++ {
		a0 |= (binary.LittleEndian.Uint64(b[i*8:]) ^ tmpl[i]) & mask[i]
	}
	return a0 | a1 | a2 | a3
}

// decode gives r the kept sets of buf, a record of s's layout.
func (s *Shape) decode(r *pcp.Result, buf []byte, v3 bool) (int32, error) {
	d := bodyDecoder(buf, TypeResult)
	r.Timestamp = logStamp(&d, v3)
	sets := r.Sets[:0]
	blocks := false
	for _, k := range s.kept {
		if len(sets) < cap(sets) {
			sets = sets[:len(sets)+1]
		} else {
			sets = append(sets, pcp.ValueSet{})
		}
		o := &sets[len(sets)-1]
		o.PMID, o.NumVal, o.ValFmt = k.pmid, k.numval, k.valfmt
		o.Values = o.Values[:0]
		if k.numval > 0 {
			nv := int(k.numval)
			o.Values = slices.Grow(o.Values, nv)[:nv]
			decodePairs(o.Values, buf[k.pairs:k.pairs+nv*valueSize])
			blocks = blocks || k.valfmt != pcp.ValInSitu
		}
	}
	r.Sets = sets
	if blocks {
		selectBlocks(&d, r)
	}
	return s.numpmid, d.Err
}

// learn makes s the layout of buf, a record the selecting decoder has
// passed with n value sets.
func (s *Shape) learn(buf []byte, v3 bool, ids []pcp.PMID, n int32) {
	// not usable until learnt whole: a read of buf that faults part-way
	// (a mapped volume cut short, recovered by the archive reader) must
	// not leave a half-written template that later records match
	s.ok = false
	words := len(buf) / 8
	s.tmpl = slices.Grow(s.tmpl[:0], words)[:words]
	s.mask = slices.Grow(s.mask[:0], words)[:words]
	clear(s.mask)
	for i := range s.tmpl {
		s.tmpl[i] = binary.LittleEndian.Uint64(buf[i*8:])
	}
	// records are whole words of 4 bytes: one may end in a half
	s.tail, s.tailMask = 0, 0
	if len(buf)%8 != 0 {
		s.tail = binary.LittleEndian.Uint32(buf[words*8:])
	}
	mark := func(off int) {
		if off >= words*8 {
			s.tailMask = 0xffffffff
			return
		}
		s.mask[off/8] |= 0xffffffff << (8 * (off % 8))
	}
	s.kept = s.kept[:0]
	off := HeaderSize + 8
	if v3 {
		off = HeaderSize + 12
	}
	mark(off)
	off += 4
	p := picker{ids: ids}
	for range n {
		pmid := pcp.PMID(binary.BigEndian.Uint32(buf[off:]))
		numval := int32(binary.BigEndian.Uint32(buf[off+4:]))
		mark(off)
		mark(off + 4)
		valfmt := pcp.ValInSitu
		if numval <= 0 {
			off += setHeader
		} else {
			valfmt = pcp.ValFmt(binary.BigEndian.Uint32(buf[off+8:]))
			mark(off + 8)
			off += setHeader + valFmtSize
		}
		if p.has(pmid) {
			s.kept = append(s.kept, shapeSet{pmid: pmid, numval: numval, valfmt: valfmt, pairs: off})
		}
		for range max(numval, 0) {
			if valfmt != pcp.ValInSitu {
				mark(off + 4)
				mark(int(binary.BigEndian.Uint32(buf[off+4:])) * 4)
			}
			off += valueSize
		}
	}
	s.from = 0
	s.cmask = s.cmask[:0]
	if chunked() {
		s.chunk()
	}
	s.ok = true
	s.v3, s.size, s.numpmid = v3, len(buf), n
	s.ids = append(s.ids[:0], ids...)
}

// chunk moves the masks of the template's whole 64-byte chunks into
// cmask, leaving mask those of the words after them.
func (s *Shape) chunk() {
	chunks := len(s.mask) / 8
	for c := range chunks {
		var m uint16
		for i := range 16 {
			if uint32(s.mask[c*8+i/2]>>(32*(i%2))) != 0 {
				m |= 1 << i
			}
		}
		s.cmask = append(s.cmask, m)
	}
	s.from = chunks * 64
	s.mask = s.mask[:copy(s.mask, s.mask[chunks*8:])]
}
