package archive

import (
	"errors"
	"fmt"
	"io"
)

// An LZMA2 decoder for whole .xz blocks: the block's compressed data in
// memory, its content decoded into a buffer the caller sized from the
// index, which is also the dictionary (matches copy from earlier in the
// same buffer). github.com/ulikunitz/xz's streaming decoder boxes every
// operation in an interface and copies through its own dictionary; with
// the whole block at hand none of that is needed, and opening a
// compressed archive is mostly this decoding (docs/bench.md). Streams
// that are not whole blocks (.lzma files, xz files of other filters)
// still go through that package.
//
// The checks are liblzma's for LZMA2 data, so that what it rejects is
// rejected here too: the first chunk resets the dictionary, a dictionary
// reset is followed by new properties, lc+lp is at most 4, a chunk's
// range coder starts with a zero byte and ends exactly at the chunk's
// packed size with nothing left to decode, no match reaches before the
// dictionary's start or beyond its size, or past the chunk's end, and
// the end-of-payload marker is not allowed.

var errLZMA2 = errors.New("corrupt LZMA2 data")

// The model's sizes.
const (
	lzmaStates       = 12
	lzmaPosStatesMax = 1 << 4
	lzmaLenLow       = 8
	lzmaLenMid       = 8
	lzmaLenHigh      = 256
	lzmaDistSlots    = 64
	lzmaFullDist     = 128
	lzmaEndPosModel  = 14
	lzmaAlignBits    = 4
	lzmaMatchMin     = 2
	lzmaProbInit     = 1 << 10
	lzmaProbBits     = 11
	lzmaMoveBits     = 5
	lzmaTop          = 1 << 24
)

// rangeDec is the range decoder over one chunk's packed bytes.
type rangeDec struct {
	in   []byte
	pos  int
	rng  uint32
	code uint32
	bad  bool // read past the chunk: the data is corrupt
}

func (rc *rangeDec) init(in []byte) bool {
	if len(in) < 5 || in[0] != 0 {
		return false
	}
	rc.in, rc.pos, rc.bad = in, 5, false
	rc.rng = 0xFFFFFFFF
	rc.code = uint32(in[1])<<24 | uint32(in[2])<<16 | uint32(in[3])<<8 | uint32(in[4])
	return true
}

func (rc *rangeDec) next() uint32 {
	if rc.pos >= len(rc.in) {
		rc.bad = true
		return 0
	}
	b := rc.in[rc.pos]
	rc.pos++
	return uint32(b)
}

// bit decodes one bit with probability *p and adapts it.
func (rc *rangeDec) bit(p *uint16) uint32 {
	if rc.rng < lzmaTop {
		rc.normalize()
	}
	bound := (rc.rng >> lzmaProbBits) * uint32(*p)
	if rc.code < bound {
		rc.rng = bound
		*p += (1<<lzmaProbBits - *p) >> lzmaMoveBits
		return 0
	}
	rc.rng -= bound
	rc.code -= bound
	*p -= *p >> lzmaMoveBits
	return 1
}

func (rc *rangeDec) normalize() {
	rc.rng <<= 8
	rc.code = rc.code<<8 | rc.next()
}

// direct decodes n bits of equal probability.
func (rc *rangeDec) direct(n uint32) uint32 {
	var v uint32
	for ; n > 0; n-- {
		if rc.rng < lzmaTop {
			rc.rng <<= 8
			rc.code = rc.code<<8 | rc.next()
		}
		rc.rng >>= 1
		v <<= 1
		if rc.code >= rc.rng {
			rc.code -= rc.rng
			v |= 1
		}
	}
	return v
}

// tree decodes an n-bit symbol, most significant bit first.
func (rc *rangeDec) tree(p []uint16, n uint) uint32 {
	m := uint32(1)
	for i := uint(0); i < n; i++ {
		m = m<<1 | rc.bit(&p[m])
	}
	return m - 1<<n
}

// reverse decodes an n-bit symbol, least significant bit first.
func (rc *rangeDec) reverse(p []uint16, n uint) uint32 {
	m, v := uint32(1), uint32(0)
	for i := uint(0); i < n; i++ {
		b := rc.bit(&p[m])
		m = m<<1 | b
		v |= b << i
	}
	return v
}

// lenDec is a match length decoder.
type lenDec struct {
	choice  uint16
	choice2 uint16
	low     [lzmaPosStatesMax][lzmaLenLow]uint16
	mid     [lzmaPosStatesMax][lzmaLenMid]uint16
	high    [lzmaLenHigh]uint16
}

// decode returns a length less lzmaMatchMin: 0 to 271.
func (l *lenDec) decode(rc *rangeDec, posState uint32) uint32 {
	if rc.bit(&l.choice) == 0 {
		return rc.tree(l.low[posState][:], 3)
	}
	if rc.bit(&l.choice2) == 0 {
		return lzmaLenLow + rc.tree(l.mid[posState][:], 3)
	}
	return lzmaLenLow + lzmaLenMid + rc.tree(l.high[:], 8)
}

// lzmaModel is the adaptive state an LZMA chunk decodes with.
type lzmaModel struct {
	lc, lp, pb uint32
	state      uint32
	reps       [4]uint32

	isMatch    [lzmaStates * lzmaPosStatesMax]uint16
	isRep      [lzmaStates]uint16
	isRepG0    [lzmaStates]uint16
	isRepG1    [lzmaStates]uint16
	isRepG2    [lzmaStates]uint16
	isRep0Long [lzmaStates * lzmaPosStatesMax]uint16
	slot       [4][lzmaDistSlots]uint16
	special    [lzmaFullDist - lzmaEndPosModel]uint16
	align      [1 << lzmaAlignBits]uint16
	matchLen   lenDec
	repLen     lenDec
	literal    []uint16 // 0x300 per literal coder
}

// setProps takes an LZMA2 properties byte.
func (m *lzmaModel) setProps(b byte) bool {
	if b >= 9*5*5 {
		return false
	}
	m.lc, m.lp, m.pb = uint32(b)%9, uint32(b)/9%5, uint32(b)/45
	if m.lc+m.lp > 4 {
		return false
	}
	n := 0x300 << (m.lc + m.lp)
	if cap(m.literal) < n {
		m.literal = make([]uint16, n)
	}
	m.literal = m.literal[:n]
	return true
}

// reset starts the state and every probability afresh.
func (m *lzmaModel) reset() {
	m.state = 0
	m.reps = [4]uint32{}
	for _, p := range [][]uint16{m.isMatch[:], m.isRep[:], m.isRepG0[:], m.isRepG1[:],
		m.isRepG2[:], m.isRep0Long[:], m.special[:], m.align[:], m.literal} {
		for i := range p {
			p[i] = lzmaProbInit
		}
	}
	for i := range m.slot {
		for j := range m.slot[i] {
			m.slot[i][j] = lzmaProbInit
		}
	}
	for _, l := range []*lenDec{&m.matchLen, &m.repLen} {
		l.choice, l.choice2 = lzmaProbInit, lzmaProbInit
		for i := range l.low {
			for j := range l.low[i] {
				l.low[i][j], l.mid[i][j] = lzmaProbInit, lzmaProbInit
			}
		}
		for i := range l.high {
			l.high[i] = lzmaProbInit
		}
	}
}

// decodeLZMA2 decodes the LZMA2 data in src into dst, whose length is the
// content's size, with a dictionary of dictSize bytes. All of dst must be
// filled and src must end with the end marker right after the last chunk.
func decodeLZMA2(dst, src []byte, dictSize int64) error {
	d := lzma2Dec{src: src, dictSize: dictSize, needDictReset: true, needProps: true}
	out := 0
	for {
		next, end, err := d.step(dst, out)
		if err != nil {
			return err
		}
		out = next
		if end {
			if out != len(dst) {
				return errLZMA2
			}
			return nil
		}
	}
}

// lzma2Chunk is the most content one chunk holds.
const lzma2Chunk = 2 << 20

// lzma2Dec is the decoder's state between chunks.
type lzma2Dec struct {
	m        lzmaModel
	rc       rangeDec
	src      []byte
	in       int
	dictSize int64
	// dictStart is where in dst the dictionary was last reset; it goes
	// below zero when a window slides (decodeLZMA2Window).
	dictStart                int
	needDictReset, needProps bool
}

// step decodes the next chunk into dst at out and returns where its
// content ends; end reports the end marker (then src must end there).
func (d *lzma2Dec) step(dst []byte, out int) (next int, end bool, err error) {
	src := d.src
	if d.in >= len(src) {
		return out, false, errLZMA2
	}
	c := src[d.in]
	d.in++
	if c == 0 {
		if d.in != len(src) {
			return out, false, errLZMA2
		}
		return out, true, nil
	}
	if c >= 0xE0 || c == 1 {
		d.needProps, d.needDictReset = true, false
		d.dictStart = out
	} else if d.needDictReset {
		return out, false, errLZMA2
	}
	if c < 0x80 {
		// uncompressed chunk
		if c > 2 || len(src)-d.in < 2 {
			return out, false, errLZMA2
		}
		n := int(src[d.in])<<8 | int(src[d.in+1]) + 1
		d.in += 2
		if len(src)-d.in < n || len(dst)-out < n {
			return out, false, errLZMA2
		}
		copy(dst[out:], src[d.in:d.in+n])
		d.in += n
		return out + n, false, nil
	}
	if len(src)-d.in < 4 {
		return out, false, errLZMA2
	}
	unpacked := int(c&0x1F)<<16 | int(src[d.in])<<8 | int(src[d.in+1]) + 1
	packed := int(src[d.in+2])<<8 | int(src[d.in+3]) + 1
	d.in += 4
	switch c >> 5 {
	case 4: // no reset
		if d.needProps {
			return out, false, errLZMA2
		}
	case 5: // state reset
		if d.needProps {
			return out, false, errLZMA2
		}
		d.m.reset()
	default: // 6, 7: new properties, state reset
		if d.in >= len(src) || !d.m.setProps(src[d.in]) {
			return out, false, errLZMA2
		}
		d.in++
		d.needProps = false
		d.m.reset()
	}
	if len(src)-d.in < packed || len(dst)-out < unpacked {
		return out, false, errLZMA2
	}
	rc := &d.rc
	if !rc.init(src[d.in : d.in+packed]) {
		return out, false, errLZMA2
	}
	out, err = d.m.decodeChunk(rc, dst, out, out+unpacked, d.dictStart, d.dictSize)
	if err != nil {
		return out, false, err
	}
	// the encoder's flush: one last normalisation takes its bytes
	if rc.rng < lzmaTop {
		rc.normalize()
	}
	if rc.bad || rc.pos != packed || rc.code != 0 {
		return out, false, errLZMA2
	}
	d.in += packed
	return out, false, nil
}

// decodeLZMA2Window decodes src, of size bytes of content, to w through
// a window of the dictionary and one chunk, sliding it as it fills: the
// decoder of blocks too large to hold (memory is the window's, at most
// xzMaxWindow).
func decodeLZMA2Window(w io.Writer, src []byte, size, dictSize int64) error {
	d := lzma2Dec{src: src, dictSize: dictSize, needDictReset: true, needProps: true}
	keep := int(min(dictSize, size))
	win := make([]byte, keep+lzma2Chunk)
	out, written := 0, 0
	var total int64
	for {
		if len(win)-out < lzma2Chunk {
			// Out with all but the dictionary, which slides to the front.
			if _, err := w.Write(win[written:out]); err != nil {
				return fmt.Errorf("%w: %w", errWrite, err)
			}
			total += int64(out - written)
			from := out - keep
			copy(win, win[from:out])
			d.dictStart -= from
			out, written = keep, keep
		}
		next, end, err := d.step(win, out)
		if err != nil {
			return err
		}
		out = next
		if end {
			if total+int64(out-written) != size {
				return errLZMA2
			}
			if _, err := w.Write(win[written:out]); err != nil {
				return fmt.Errorf("%w: %w", errWrite, err)
			}
			return nil
		}
		if total+int64(out-written) > size {
			return errLZMA2
		}
	}
}

// decodeChunk decodes into dst from out up to end and returns where it
// stopped; the dictionary starts at dictStart.
func (m *lzmaModel) decodeChunk(rc *rangeDec, dst []byte, out, end, dictStart int, dictSize int64) (int, error) {
	pbMask := uint32(1)<<m.pb - 1
	lpMask := uint32(1)<<m.lp - 1
	lc := m.lc
	state := m.state
	rep0, rep1, rep2, rep3 := m.reps[0], m.reps[1], m.reps[2], m.reps[3]
	defer func() {
		m.state = state
		m.reps = [4]uint32{rep0, rep1, rep2, rep3}
	}()
	for out < end {
		if rc.bad {
			return out, errLZMA2
		}
		pos := uint32(out - dictStart)
		posState := pos & pbMask
		if rc.bit(&m.isMatch[state<<4+posState]) == 0 {
			prev := uint32(0)
			if out > dictStart {
				prev = uint32(dst[out-1])
			}
			probs := m.literal[0x300*((pos&lpMask)<<lc+prev>>(8-lc)):][:0x300]
			sym := uint32(1)
			if state >= 7 {
				dist := int(rep0) + 1
				if dist > out-dictStart {
					return out, errLZMA2
				}
				match := uint32(dst[out-dist])
				for sym < 0x100 {
					mb := match >> 7 & 1
					match <<= 1
					b := rc.bit(&probs[(1+mb)<<8+sym])
					sym = sym<<1 | b
					if mb != b {
						break
					}
				}
			}
			for sym < 0x100 {
				sym = sym<<1 | rc.bit(&probs[sym])
			}
			dst[out] = byte(sym)
			out++
			switch {
			case state < 4:
				state = 0
			case state < 10:
				state -= 3
			default:
				state -= 6
			}
			continue
		}
		var n uint32
		if rc.bit(&m.isRep[state]) != 0 {
			if rc.bit(&m.isRepG0[state]) == 0 {
				if rc.bit(&m.isRep0Long[state<<4+posState]) == 0 {
					// one byte at rep0
					if state < 7 {
						state = 9
					} else {
						state = 11
					}
					dist := int(rep0) + 1
					if dist > out-dictStart {
						return out, errLZMA2
					}
					dst[out] = dst[out-dist]
					out++
					continue
				}
			} else {
				var d uint32
				if rc.bit(&m.isRepG1[state]) == 0 {
					d = rep1
				} else {
					if rc.bit(&m.isRepG2[state]) == 0 {
						d = rep2
					} else {
						d = rep3
						rep3 = rep2
					}
					rep2 = rep1
				}
				rep1 = rep0
				rep0 = d
			}
			n = m.repLen.decode(rc, posState)
			if state < 7 {
				state = 8
			} else {
				state = 11
			}
		} else {
			rep3, rep2, rep1 = rep2, rep1, rep0
			n = m.matchLen.decode(rc, posState)
			if state < 7 {
				state = 7
			} else {
				state = 10
			}
			rep0 = m.distance(rc, n)
			if rep0 == 0xFFFFFFFF {
				return out, errLZMA2 // the end marker, not allowed in LZMA2
			}
		}
		count := int(n) + lzmaMatchMin
		dist := int(rep0) + 1
		if dist > out-dictStart || int64(dist) > dictSize || count > end-out {
			return out, errLZMA2
		}
		from := out - dist
		// An overlapping match repeats the dist bytes before it: copied
		// from what is already written, twice as much each time.
		for done := 0; done < count; {
			done += copy(dst[out+done:out+count], dst[from:out+done])
		}
		out += count
	}
	return out, nil
}

// distance decodes a match's distance less one for a length less
// lzmaMatchMin of n.
func (m *lzmaModel) distance(rc *rangeDec, n uint32) uint32 {
	slot := rc.tree(m.slot[min(n, 3)][:], 6)
	if slot < 4 {
		return slot
	}
	bits := slot>>1 - 1
	d := (2 | slot&1) << bits
	if slot < lzmaEndPosModel {
		// the tree's node m (from 1) is special[d-slot-1+m]
		p := m.special[d-slot:]
		k, v := uint32(1), uint32(0)
		for i := uint32(0); i < bits; i++ {
			b := rc.bit(&p[k-1])
			k = k<<1 | b
			v |= b << i
		}
		return d + v
	}
	d += rc.direct(bits-lzmaAlignBits) << lzmaAlignBits
	return d + rc.reverse(m.align[:], lzmaAlignBits)
}
