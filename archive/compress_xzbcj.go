package archive

import "encoding/binary"

// The branch converters' decoders. Each finds the call (or branch)
// instructions of its architecture by their opcode bits and turns the
// absolute target the encoder stored back into the relative one,
// subtracting the instruction's position (pos, the content offset of
// b[0] plus the filter's start offset, wrapping at 32 bits). Each
// returns how many bytes of b it has dealt with; the rest is shorter
// than an instruction, or (x86) may be one whose end is not yet seen.

// x86Dec undoes the x86 filter, whose CALL (0xe8) and JMP (0xe9)
// operands are converted only when their top byte is 0x00 or 0xff and
// the bytes just before did not look like such opcodes, a state kept
// from piece to piece.
type x86Dec struct {
	pos      uint32
	prevMask uint32
	prevPos  uint32
}

func x86Top(b byte) bool { return b == 0 || b == 0xff }

func (d *x86Dec) run(b []byte) int {
	allowed := [8]bool{true, true, true, false, true, false, false, false}
	bitNum := [8]uint32{0, 1, 2, 2, 3, 3, 3, 3}
	if len(b) < 5 {
		return 0
	}
	mask, prev := d.prevMask, d.prevPos
	if d.pos-prev > 5 {
		prev = d.pos - 5
	}
	i := 0
	for i <= len(b)-5 {
		if b[i] != 0xe8 && b[i] != 0xe9 {
			i++
			continue
		}
		at := d.pos + uint32(i)
		off := at - prev
		prev = at
		if off > 5 {
			mask = 0
		} else {
			for k := uint32(0); k < off; k++ {
				mask = (mask & 0x77) << 1
			}
		}
		top := b[i+4]
		if !x86Top(top) || !allowed[(mask>>1)&7] || mask>>1 >= 0x10 {
			i++
			mask |= 1
			if x86Top(top) {
				mask |= 0x10
			}
			continue
		}
		src := binary.LittleEndian.Uint32(b[i+1:])
		var dest uint32
		for {
			dest = src - (at + 5)
			if mask == 0 {
				break
			}
			k := bitNum[mask>>1]
			if !x86Top(byte(dest >> (24 - k*8))) {
				break
			}
			src = dest ^ (1<<(32-k*8) - 1)
		}
		// the top byte follows bit 24: 0x00 or 0xff
		dest = dest&0x00ffffff | -(dest>>24&1)<<24
		binary.LittleEndian.PutUint32(b[i+1:], dest)
		i += 5
		mask = 0
	}
	d.prevMask, d.prevPos = mask, prev
	d.pos += uint32(i)
	return i
}

func unPowerPC(b []byte, pos uint32) int {
	i := 0
	for ; i+4 <= len(b); i += 4 {
		// "bl": opcode 18, absolute bit clear, link bit set
		if b[i]>>2 != 0x12 || b[i+3]&3 != 1 {
			continue
		}
		src := binary.BigEndian.Uint32(b[i:]) & 0x03fffffc
		dest := src - (pos + uint32(i))
		binary.BigEndian.PutUint32(b[i:], 0x48000000|dest&0x03ffffff|uint32(b[i+3]&3))
	}
	return i
}

func unARM(b []byte, pos uint32) int {
	i := 0
	for ; i+4 <= len(b); i += 4 {
		if b[i+3] != 0xeb { // BL, always
			continue
		}
		src := (uint32(b[i+2])<<16 | uint32(b[i+1])<<8 | uint32(b[i])) << 2
		dest := (src - (pos + uint32(i) + 8)) >> 2
		b[i+2], b[i+1], b[i] = byte(dest>>16), byte(dest>>8), byte(dest)
	}
	return i
}

func unARMThumb(b []byte, pos uint32) int {
	i := 0
	for ; i+4 <= len(b); i += 2 {
		// BL's two halves: 11110 then 11111
		if b[i+1]&0xf8 != 0xf0 || b[i+3]&0xf8 != 0xf8 {
			continue
		}
		src := (uint32(b[i+1]&7)<<19 | uint32(b[i])<<11 | uint32(b[i+3]&7)<<8 | uint32(b[i+2])) << 1
		dest := (src - (pos + uint32(i) + 4)) >> 1
		b[i+1] = 0xf0 | byte(dest>>19)&7
		b[i] = byte(dest >> 11)
		b[i+3] = 0xf8 | byte(dest>>8)&7
		b[i+2] = byte(dest)
		i += 2
	}
	return i
}

func unSPARC(b []byte, pos uint32) int {
	i := 0
	for ; i+4 <= len(b); i += 4 {
		// CALL, with a displacement whose top bits agree
		if !(b[i] == 0x40 && b[i+1]&0xc0 == 0 || b[i] == 0x7f && b[i+1]&0xc0 == 0xc0) {
			continue
		}
		src := binary.BigEndian.Uint32(b[i:]) << 2
		dest := (src - (pos + uint32(i))) >> 2
		dest = (-(dest>>22&1)<<22)&0x3fffffff | dest&0x3fffff | 0x40000000
		binary.BigEndian.PutUint32(b[i:], dest)
	}
	return i
}

func unARM64(b []byte, pos uint32) int {
	i := 0
	for ; i+4 <= len(b); i += 4 {
		pc := pos + uint32(i)
		ins := binary.LittleEndian.Uint32(b[i:])
		switch {
		case ins>>26 == 0x25: // BL
			ins = 0x94000000 | (ins-pc>>2)&0x03ffffff
		case ins&0x9f000000 == 0x90000000: // ADRP, within 512 MiB
			src := ins>>29&3 | ins>>3&0x001ffffc
			if (src+0x00020000)&0x001c0000 != 0 {
				continue
			}
			dest := src - pc>>12
			ins = ins&0x9000001f | (dest&3)<<29 | (dest&0x0003fffc)<<3 | -(dest&0x00020000)&0x00e00000
		default:
			continue
		}
		binary.LittleEndian.PutUint32(b[i:], ins)
	}
	return i
}

func unIA64(b []byte, pos uint32) int {
	// which of a bundle's three slots may hold a branch, by template
	slots := [32]uint32{
		0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
		4, 4, 6, 6, 0, 0, 7, 7,
		4, 4, 0, 0, 4, 4, 0, 0,
	}
	i := 0
	for ; i+16 <= len(b); i += 16 {
		mask := slots[b[i]&0x1f]
		for slot, bit := uint32(0), uint32(5); slot < 3; slot, bit = slot+1, bit+41 {
			if mask>>slot&1 == 0 {
				continue
			}
			at := i + int(bit>>3)
			shift := bit & 7
			var ins uint64
			for j := 0; j < 6; j++ {
				ins |= uint64(b[at+j]) << (8 * j)
			}
			norm := ins >> shift
			if norm>>37&0xf != 5 || norm>>9&7 != 0 {
				continue
			}
			src := uint32(norm>>13&0xfffff) | uint32(norm>>36&1)<<20
			dest := (src<<4 - (pos + uint32(i))) >> 4
			norm &^= uint64(0x8fffff) << 13
			norm |= uint64(dest&0xfffff) << 13
			norm |= uint64(dest&0x100000) << (36 - 20)
			ins = ins&(1<<shift-1) | norm<<shift
			for j := 0; j < 6; j++ {
				b[at+j] = byte(ins >> (8 * j))
			}
		}
	}
	return i
}
