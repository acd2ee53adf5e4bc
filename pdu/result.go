package pdu

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/gopcp/gopcp/pcp"
)

// Result is a RESULT PDU: the values of a fetch with a timestamp of
// microsecond resolution, the reply to FETCH and what agents send pmcd.
//
// The body is the timestamp as two signed 32-bit words (seconds,
// microseconds), the count of value sets, then each value set: PMID,
// numval, and when numval > 0 the value format and numval (instance,
// value) pairs. In-situ values are the 32-bit value itself; for the
// pointer formats it is the offset, in 4-byte words from the start of the
// PDU, of a value block in the region after the last value set. Each block
// is a word of type (top 8 bits) and length (24 bits, header included),
// then the value, then padding to a multiple of 4, which PCP fills with
// '~'. numval < 0 is a PCP error code for the metric and has no format
// word.
//
// PCP sends numbers inside value blocks in big-endian order and swaps them
// in place on receipt: 64-bit integers and doubles, floats, and the
// fields of event records. Decoding does the same, so a decoded block's
// Data holds them in host order (binary.NativeEndian), which is what
// pcp.ExtractValue reads; encoding swaps them back.
type Result struct {
	pcp.Result
}

// PDUType returns TypeResult.
func (*Result) PDUType() Type { return TypeResult }

// Append encodes the PDU onto dst; see AppendResult.
func (m *Result) Append(dst []byte, from int32) []byte {
	return AppendResult(dst, from, &m.Result)
}

// Decode parses a RESULT PDU into m, reusing its storage; see
// DecodeResultInto.
func (m *Result) Decode(pdu []byte) error {
	return DecodeResultInto(&m.Result, pdu)
}

// AppendResult encodes r as a RESULT PDU onto dst. The timestamp is cut
// to 32-bit seconds and microseconds, as PCP does. A set with NumVal < 0
// is sent as that error code with no values; otherwise its numval is
// len(Values). Value blocks must respect pcp.MaxValueLen.
func AppendResult(dst []byte, from int32, r *pcp.Result) []byte {
	dst, start := begin(dst, TypeResult, from)
	dst = appendI32(dst, int32(r.Timestamp.Sec))
	dst = appendI32(dst, r.Timestamp.Nsec/1000)
	dst = appendI32(dst, int32(len(r.Sets)))
	dst = appendValueSets(dst, start, r.Sets)
	return finish(dst, start)
}

// DecodeResultInto parses a RESULT PDU into r, reusing the storage r
// already has: its Sets and each set's Values are truncated and refilled,
// as encoding/json reuses slices, and the value blocks are copied into
// r.Arena, each Block.Data pointing at its own block there (capped at its
// end, so appending to one cannot overwrite the next). So decoding the
// same shape of result again allocates nothing, and nothing decoded
// aliases pdu; but any slice the caller shares with r's previous content,
// the Block.Data of values decoded before included, is overwritten. Copy
// a value's Data to keep it past the next decode into r. In-situ values
// get a nil Block.Data.
//
// The layout must be as PCP's decoder demands: value format 0, 1 or 2,
// every block inside the PDU with a length of at least its header, and
// the blocks, padded, exactly filling the PDU after the value sets. A
// 64-bit or double block must hold at least 8 bytes and a float block 4,
// and event record blocks must parse. On error r holds whatever was
// decoded before the fault.
func DecodeResultInto(r *pcp.Result, pdu []byte) error {
	var dec decoder
	dec.reset(pdu, TypeResult)
	d := &dec
	at := d.Off
	sec := d.I32("timestamp seconds")
	usec := d.I32("timestamp microseconds")
	// libpcp does not check the microseconds, and PCP's pmstore sends
	// what it has (-99185 has been seen): whole seconds of them go into
	// the seconds, so the instant is kept and Nsec is in range.
	sec64, usec64 := int64(sec)+int64(usec)/1e6, int64(usec)%1e6
	if usec64 < 0 {
		sec64, usec64 = sec64-1, usec64+1e6
	}
	r.Timestamp = pcp.Timestamp{Sec: sec64, Nsec: int32(usec64 * 1000)}
	at = d.Off
	decodeValueSetsN(d, r, at, d.I32("numpmid"))
	return d.Err
}

// The sizes of a value set's parts on the wire.
const (
	setHeader    = 8 // PMID, numval
	valFmtSize   = 4
	valueSize    = 8 // instance, value or offset
	blockPadding = '~'
)

// appendValueSets encodes sets followed by their value blocks; start is
// where the PDU begins in dst, from which block offsets count.
func appendValueSets(dst []byte, start int, sets []pcp.ValueSet) []byte {
	blocks := len(dst) - start
	for i := range sets {
		blocks += setHeader
		if n := len(sets[i].Values); sets[i].NumVal >= 0 && n > 0 {
			blocks += valFmtSize + n*valueSize
		}
	}
	for i := range sets {
		s := &sets[i]
		dst = appendU32(dst, uint32(s.PMID))
		if s.NumVal < 0 {
			dst = appendI32(dst, s.NumVal)
			continue
		}
		dst = appendI32(dst, int32(len(s.Values)))
		if len(s.Values) == 0 {
			continue
		}
		dst = appendI32(dst, int32(s.ValFmt))
		for j := range s.Values {
			v := &s.Values[j]
			dst = appendI32(dst, v.Inst)
			if s.ValFmt == pcp.ValInSitu {
				dst = appendI32(dst, v.LVal)
				continue
			}
			dst = appendU32(dst, uint32(blocks/4))
			blocks += align4(v.Block.Len())
		}
	}
	for i := range sets {
		s := &sets[i]
		if s.NumVal < 0 || s.ValFmt == pcp.ValInSitu {
			continue
		}
		for j := range s.Values {
			dst = appendBlock(dst, &s.Values[j].Block)
		}
	}
	return dst
}

// appendBlock encodes one value block with its numbers in network order.
func appendBlock(dst []byte, b *pcp.ValueBlock) []byte {
	dst = appendU32(dst, uint32(b.Type)<<24|uint32(b.Len())&pcp.MaxValueLen)
	at := len(dst)
	dst = append(dst, b.Data...)
	swapBlock(dst[at:], b.Type, binary.NativeEndian)
	for n := len(b.Data); n%4 != 0; n++ {
		dst = append(dst, blockPadding)
	}
	return dst
}

// decodeValueSetsN reads n value sets at d's position, then their value
// blocks, into r; at is where the count was read, for error reports.
func decodeValueSetsN(d *decoder, r *pcp.Result, at int, n int32) {
	if d.Err == nil && (n < 0 || int64(n)*setHeader > int64(d.Remaining())) {
		d.Fail(at, fmt.Sprintf("numpmid %d cannot fit in %d bytes", n, d.Remaining()))
	}
	sets := r.Sets[:0]
	blocks := 0
	// every set's values are cut from one store of r's (pcp.Result's
	// ValueArena says why); a layout that does not add up leaves it
	// empty, and the loop below reports the fault
	var rest []byte
	if d.Off <= len(d.B) {
		rest = d.B[d.Off:]
	}
	pool := r.ValueArena(countValues(rest, n))
	for i := int32(0); i < n && d.Err == nil; i++ {
		if len(sets) < cap(sets) {
			sets = sets[:len(sets)+1]
		} else {
			sets = append(sets, pcp.ValueSet{})
		}
		s := &sets[len(sets)-1]
		s.ValFmt = pcp.ValInSitu
		s.Values = s.Values[:0]
		at := d.Off + setHeader // of valfmt, for error reports
		if h := d.B[d.Off:]; len(h) >= setHeader+valFmtSize {
			// Reading the words directly rather than through d's checked
			// reads, which are calls, saved a tenth of the time of
			// decoding a typical result.
			s.PMID = pcp.PMID(binary.BigEndian.Uint32(h))
			s.NumVal = int32(binary.BigEndian.Uint32(h[4:]))
			d.Off += setHeader
			if s.NumVal > 0 {
				s.ValFmt = pcp.ValFmt(binary.BigEndian.Uint32(h[8:]))
				d.Off += valFmtSize
			}
		} else {
			// Near the end: the checked reads report what is missing.
			s.PMID = pcp.PMID(d.U32("pmid"))
			s.NumVal = d.I32("numval")
			if s.NumVal > 0 {
				s.ValFmt = pcp.ValFmt(d.I32("valfmt"))
			}
		}
		if s.NumVal <= 0 || d.Err != nil {
			continue
		}
		if d.Err == nil && (s.ValFmt < pcp.ValInSitu || s.ValFmt > pcp.ValSPtr) {
			d.Fail(at, fmt.Sprintf("pmid %d valfmt %d", s.PMID, s.ValFmt))
		}
		if d.Err == nil && int64(s.NumVal)*valueSize > int64(d.Remaining()) {
			d.Fail(at-4, fmt.Sprintf("numval %d cannot fit in %d bytes", s.NumVal, d.Remaining()))
		}
		if d.Err != nil {
			break
		}
		// The pairs are known to be there: read them without a check each.
		// Values is sized to numval at once, which the check above bounds
		// by the PDU's length.
		nv := int(s.NumVal)
		pairs := d.B[d.Off : d.Off+nv*valueSize]
		d.Off += len(pairs)
		if nv <= len(pool) {
			s.Values, pool = pool[:nv:nv], pool[nv:]
		} else {
			s.Values = slices.Grow(s.Values, nv)[:nv]
		}
		decodePairs(s.Values, pairs)
		if s.ValFmt != pcp.ValInSitu {
			blocks += int(s.NumVal)
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
	decodeBlocks(d, r)
}

// countValues is the number of values in the n value sets at the start
// of b, 0 when they do not fit in it (the decoder then finds the fault).
func countValues(b []byte, n int32) int {
	off, total := 0, 0
	for range n {
		if len(b)-off < setHeader {
			return 0
		}
		nv := int32(binary.BigEndian.Uint32(b[off+4:]))
		off += setHeader
		if nv <= 0 {
			continue
		}
		if int64(nv)*valueSize > int64(len(b)-off-valFmtSize) {
			return 0
		}
		off += valFmtSize + int(nv)*valueSize
		total += int(nv)
	}
	return total
}

// decodePairs fills vals from the (instance, value) pairs of a value set,
// len(vals)*valueSize bytes. It is a function of its own so that the loop
// makes no call and keeps its variables in registers.
func decodePairs(vals []pcp.Value, pairs []byte) {
	for j := range vals {
		p := pairs[j*valueSize : j*valueSize+valueSize]
		// Block.Data is nil, not Data[:0]: it points into an arena
		// (perhaps an old, smaller one) that it must not keep alive.
		vals[j] = pcp.Value{
			Inst: int32(binary.BigEndian.Uint32(p)),
			LVal: int32(binary.BigEndian.Uint32(p[4:])),
		}
	}
}

// decodeBlocks resolves the block offsets that decodeValueSets left in
// LVal, giving each value a copy of its block in r's arena. Like PCP, it
// demands that the first block start where the value sets end and that
// the padded blocks add up to the rest of the PDU; this also bounds the
// bytes copied by the PDU's length even if values share a block.
//
// The arena is sized once, to the region of blocks after the value sets,
// and that region is copied into it with one copy, as libpcp does with
// one memcpy. Each value then gets the next slot of the arena in value
// order: in a PDU laid out as PCP's encoders (and ours) lay it out the
// slot is where the block already lies and there is nothing more to copy;
// otherwise (blocks out of order, or shared by values) the block is copied
// into its slot. A slot is written only for its own value, so every value
// has its own bytes, swapped once, as when each block was copied alone.
func decodeBlocks(d *decoder, r *pcp.Result) {
	region := d.Off
	arena := r.Arena(len(d.B) - region)
	copy(arena, d.B[region:])
	b := blocks{pdu: d.B, arena: arena, region: region, first: len(d.B)}
	for i := range r.Sets {
		s := &r.Sets[i]
		if s.NumVal <= 0 || s.ValFmt == pcp.ValInSitu {
			continue
		}
		for j := 0; j < len(s.Values); j++ {
			// The common blocks go by quickly; decodeBlock takes the
			// first other one, and reports it if it is bad.
			j += b.fast(s.Values[j:])
			if j < len(s.Values) && !b.decodeBlock(d, s, j) {
				return
			}
		}
	}
	if b.first != region || region+b.total != len(d.B) {
		d.Fail(region, fmt.Sprintf("value blocks cover %d bytes from %d; the region is %d bytes from %d", b.total, b.first, len(d.B)-region, region))
		return
	}
	d.Off = len(d.B)
}

// blocks is the state of decodeBlocks: the PDU, the arena holding a copy
// of its region of blocks from byte region on, the lowest block offset
// seen and the bytes of arena slots handed out so far.
type blocks struct {
	pdu, arena           []byte
	region, first, total int
}

// fast resolves values from the start of vals for as long as each block
// is good, lies in its own slot (where the bulk copy has put it already)
// and is a plain number or has no numbers to swap. It returns how many it
// resolved. It makes no call, so that its loop keeps its variables in
// registers; anything else is left to decodeBlock, which checks the same
// and reports what is wrong.
func (b *blocks) fast(vals []pcp.Value) int {
	arena, region, total := b.arena, b.region, b.total
	j := 0
	for ; j < len(vals); j++ {
		v := &vals[j]
		// The block's offset in the region. Being in its slot (at total)
		// puts it inside the region and past every slot written, so its
		// header can be read from the arena's copy, which no swap has
		// touched yet. It is read at o, which comes from the value's own
		// offset, not at total, which is equal: an address computed from
		// total would make each iteration wait for the last one's load of
		// a length.
		off := int64(uint32(v.LVal))*4 - int64(region)
		if off != int64(total) || total > len(arena)-pcp.ValueHeaderSize {
			break
		}
		o := int(off) // equal to total, so in range
		word := binary.BigEndian.Uint32(arena[o:])
		vtype, vlen := pcp.Type(word>>24), int(word&pcp.MaxValueLen)
		end := o + align4(vlen)
		if vlen < pcp.ValueHeaderSize || end > len(arena) {
			break
		}
		data := arena[o+pcp.ValueHeaderSize : o+vlen : o+vlen]
		if !swapNumber(data, vtype) {
			break
		}
		v.LVal = 0
		v.Block.Type = vtype
		v.Block.Data = data
		total = end
	}
	if j > 0 {
		// The blocks resolved lie in order from the first one's slot.
		b.first = min(b.first, region+b.total)
	}
	b.total = total
	return j
}

// decodeBlock resolves value j of s in general, or reports why it cannot
// and returns false.
func (b *blocks) decodeBlock(d *decoder, s *pcp.ValueSet, j int) bool {
	pdu, arena, region := b.pdu, b.arena, b.region
	v := &s.Values[j]
	off := int64(uint32(v.LVal)) * 4
	v.LVal = 0
	if off < int64(region) || off+pcp.ValueHeaderSize > int64(len(pdu)) {
		d.Fail(region, fmt.Sprintf("pmid %d value %d: block offset %d outside %d..%d", s.PMID, j, off, region, len(pdu)))
		return false
	}
	o := int(off)
	// The header is read from pdu, which nothing writes to; the arena's
	// copy of it may lie in another value's slot, and be swapped.
	word := binary.BigEndian.Uint32(pdu[o:])
	vtype, vlen := pcp.Type(word>>24), int(word&pcp.MaxValueLen)
	if vlen < pcp.ValueHeaderSize || o+vlen > len(pdu) {
		d.Fail(o, fmt.Sprintf("pmid %d value %d: block length %d at %d in PDU of %d", s.PMID, j, vlen, o, len(pdu)))
		return false
	}
	slot := b.total
	b.total += align4(vlen)
	if b.total > len(arena) {
		d.Fail(o, fmt.Sprintf("value blocks exceed the %d bytes after the value sets", len(arena)))
		return false
	}
	b.first = min(b.first, o)
	// slot+vlen <= b.total <= len(arena), checked above.
	data := arena[slot+pcp.ValueHeaderSize : slot+vlen : slot+vlen]
	if o-region != slot {
		copy(data, pdu[o+pcp.ValueHeaderSize:o+vlen])
	}
	v.Block.Type = vtype
	v.Block.Data = data
	if err := swapBlock(data, vtype, binary.BigEndian); err != nil {
		d.Fail(o, fmt.Sprintf("pmid %d value %d: %v", s.PMID, j, err))
		return false
	}
	return true
}

// swapNumber is swapBlock's common case, small enough to inline: it swaps
// a block that is a single number long enough for its type, or leaves a
// block of a type without numbers alone, and says whether it did either.
// Event records and short blocks are left to swapBlock.
func swapNumber(data []byte, t pcp.Type) bool {
	switch t {
	case pcp.Type64, pcp.TypeU64, pcp.TypeDouble:
		if len(data) < 8 {
			return false
		}
		swap8(data)
	case pcp.TypeFloat:
		if len(data) < 4 {
			return false
		}
		swap4(data)
	case pcp.TypeEvent, pcp.TypeHighResEvent:
		return false
	}
	return true
}

// swap4 and swap8 reverse a number's bytes on a little-endian host and
// leave them on a big-endian one: the conversion between network and host
// order, which is the same in either direction. Written as a load in one
// order and a store in the other, they compile to a byte-swap instruction.

func swap4(b []byte) { binary.NativeEndian.PutUint32(b, binary.BigEndian.Uint32(b)) }

func swap8(b []byte) { binary.NativeEndian.PutUint64(b, binary.BigEndian.Uint64(b)) }

// swapBlock converts a value block's data between network and host order
// in place, as libpcp does for a block of type t: src is the order data is
// in now. Block types without numbers are left alone. Data too short for
// its type, or event records that do not fit their block, are an error;
// what could be converted before that point has been.
func swapBlock(data []byte, t pcp.Type, src binary.ByteOrder) error {
	switch t {
	case pcp.Type64, pcp.TypeU64, pcp.TypeDouble:
		if len(data) < 8 {
			return fmt.Errorf("%d bytes for a %d-byte value of type %d", len(data), 8, t)
		}
		swap8(data)
	case pcp.TypeFloat:
		if len(data) < 4 {
			return fmt.Errorf("%d bytes for a %d-byte value of type %d", len(data), 4, t)
		}
		swap4(data)
	case pcp.TypeEvent:
		return swapEvents(data, false, src)
	case pcp.TypeHighResEvent:
		return swapEvents(data, true, src)
	}
	return nil
}

// eventFlagMissed is PM_EVENT_FLAG_MISSED: the record's nparams counts
// missed records and no parameters follow.
const eventFlagMissed = 1 << 31

// swapEvents converts the body of an event array block (after its type
// and length word): the record count, then each record's timestamp (32-bit
// seconds and microseconds, or for high resolution 64-bit seconds and
// nanoseconds), flags and parameter count, and each parameter's PMID, its
// type and length word and its value if numeric. A parameter's length
// counts its type and length word, and its value is padded to 4 bytes.
// Bytes after the last record are left alone, as PCP leaves them.
func swapEvents(data []byte, highres bool, src binary.ByteOrder) error {
	if len(data) < 4 {
		return fmt.Errorf("event array of %d bytes has no record count", len(data))
	}
	nrec := src.Uint32(data)
	swap4(data)
	recHeader := 16
	if highres {
		recHeader = 24
	}
	p := 4
	for r := uint32(0); r < nrec; r++ {
		if len(data)-p < recHeader {
			return fmt.Errorf("event record %d of %d at byte %d overruns the %d-byte array", r, nrec, p, len(data))
		}
		rec := data[p : p+recHeader]
		if highres {
			swap8(rec[0:])
			swap8(rec[8:])
		} else {
			swap4(rec[0:])
			swap4(rec[4:])
		}
		flags := src.Uint32(rec[recHeader-8:])
		nparams := src.Uint32(rec[recHeader-4:])
		swap4(rec[recHeader-8:])
		swap4(rec[recHeader-4:])
		p += recHeader
		if flags&eventFlagMissed != 0 {
			nparams = 0
			// libpcp sends a high-resolution missed record's count as
			// zero (only the legacy form keeps it on the wire); PCP's
			// clients see 0, so ours must send what they would.
			if highres && src == binary.NativeEndian {
				binary.BigEndian.PutUint32(rec[recHeader-4:], 0)
			}
		}
		for k := uint32(0); k < nparams; k++ {
			if len(data)-p < 8 {
				return fmt.Errorf("event record %d parameter %d at byte %d overruns the %d-byte array", r, k, p, len(data))
			}
			swap4(data[p:])
			word := src.Uint32(data[p+4:])
			swap4(data[p+4:])
			ptype, plen := pcp.Type(word>>24), int(word&pcp.MaxValueLen)
			if plen < pcp.ValueHeaderSize || len(data)-(p+4) < plen {
				return fmt.Errorf("event record %d parameter %d: length %d at byte %d in a %d-byte array", r, k, plen, p, len(data))
			}
			val := data[p+8 : p+4+plen]
			switch ptype {
			case pcp.Type32, pcp.TypeU32, pcp.TypeFloat:
				if len(val) < 4 {
					return fmt.Errorf("event record %d parameter %d: %d bytes for type %d", r, k, len(val), ptype)
				}
				swap4(val)
			case pcp.Type64, pcp.TypeU64, pcp.TypeDouble:
				if len(val) < 8 {
					return fmt.Errorf("event record %d parameter %d: %d bytes for type %d", r, k, len(val), ptype)
				}
				swap8(val)
			}
			p += 4 + align4(plen)
		}
	}
	return nil
}
