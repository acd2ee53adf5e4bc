package archive

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
)

// pack(1)'s format, which gzip -dc reads (libpcp runs it for .gz, .Z
// and .z files, and .z was pack's suffix): the magic 0x1f 0x1e, the
// content's length (four bytes, most significant first), then a Huffman
// code given as the longest code's length, the number of leaves at each
// length (the last count less two: it leaves out the end code), the
// leaves' bytes, and the codes, most significant bit first, ending with
// the end code, the last of the longest. Codes of the same length are
// consecutive, the shortest all ones. gzip takes further members after
// a pack member, as after a gzip one.

const (
	packMagic1  = 0x1f
	packMagic2  = 0x1e
	packMaxBits = 25 // the longest code gzip reads
	packPeek    = 12 // bits looked at at once, as gzip does
)

var (
	errPackEOF       = errors.New("invalid compressed data -- unexpected end of file")
	errPackLength    = errors.New("invalid compressed data--length error")
	errPackTooMany   = errors.New("too many leaves in Huffman tree")
	errPackTooFew    = errors.New("too few leaves in Huffman tree")
	errPackBadLength = errors.New("invalid compressed data -- Huffman code bit length out of range")
)

// packReader decodes one pack member.
type packReader struct {
	src     *bufio.Reader
	origLen uint32
	maxLen  int
	literal [256]byte
	litBase [packMaxBits + 1]int
	leaves  [packMaxBits + 1]int
	parents [packMaxBits + 1]int
	peekLen [1 << packPeek]uint8 // code length by its first peekBits bits, 0 if longer
	peek    int
	eob     int

	bits   uint64 // bits read, the next at bit valid-1
	valid  int
	n      uint32 // bytes out, modulo 2^32 as the length is
	out    []byte // decoded bytes, handed out by Read from outPos
	outPos int
	err    error
}

// newPackReader reads a pack member's header and code; src must be at
// its magic number.
func newPackReader(src *bufio.Reader) (*packReader, error) {
	var hdr [7]byte
	if _, err := io.ReadFull(src, hdr[:]); err != nil {
		return nil, errPackEOF
	}
	z := &packReader{src: src, origLen: binary.BigEndian.Uint32(hdr[2:6]), maxLen: int(hdr[6])}
	if z.maxLen < 1 || z.maxLen > packMaxBits {
		return nil, errPackBadLength
	}
	counts := make([]byte, z.maxLen)
	if _, err := io.ReadFull(src, counts); err != nil {
		return nil, errPackEOF
	}
	free, n := 1, 0 // free: codes of this length not yet taken
	for l := 1; l <= z.maxLen; l++ {
		z.leaves[l] = int(counts[l-1])
		last := 0
		if l == z.maxLen {
			last = 1
		}
		if free-last < z.leaves[l] {
			return nil, errPackTooMany
		}
		free = (free-z.leaves[l]+1)*2 - 1
		n += z.leaves[l]
	}
	if n >= 256 {
		return nil, errPackTooMany
	}
	z.leaves[z.maxLen]++
	base := 0
	for l := 1; l <= z.maxLen; l++ {
		z.litBase[l] = base
		if _, err := io.ReadFull(src, z.literal[base:base+z.leaves[l]]); err != nil {
			return nil, errPackEOF
		}
		base += z.leaves[l]
	}
	z.leaves[z.maxLen]++ // the end code
	nodes := 0
	for l := z.maxLen; l >= 1; l-- {
		nodes >>= 1
		z.parents[l] = nodes
		z.litBase[l] -= nodes
		nodes += z.leaves[l]
	}
	if nodes>>1 != 1 {
		return nil, errPackTooFew
	}
	z.peek = min(z.maxLen, packPeek)
	at := 1 << z.peek
	for l := 1; l <= z.peek; l++ {
		for k := z.leaves[l] << (z.peek - l); k > 0; k-- {
			at--
			z.peekLen[at] = uint8(l)
		}
	}
	z.eob = z.leaves[z.maxLen] - 1
	return z, nil
}

// look returns the next n bits without taking them.
func (z *packReader) look(n int) (int, error) {
	for z.valid < n {
		b, err := z.src.ReadByte()
		if err != nil {
			return 0, errPackEOF
		}
		z.bits = z.bits<<8 | uint64(b)
		z.valid += 8
	}
	return int(z.bits>>(z.valid-n)) & (1<<n - 1), nil
}

// step decodes one code: a byte into z.out, or io.EOF at the end code.
func (z *packReader) step() error {
	c, err := z.look(z.peek)
	if err != nil {
		return err
	}
	l := int(z.peekLen[c])
	if l > 0 {
		c >>= z.peek - l
	} else {
		for l = z.peek; c < z.parents[l]; {
			l++
			if c, err = z.look(l); err != nil {
				return err
			}
		}
	}
	if c == z.eob && l == z.maxLen {
		if z.n != z.origLen {
			return errPackLength
		}
		return io.EOF
	}
	i := c + z.litBase[l]
	if i < 0 || i >= len(z.literal) {
		// not in a complete code, which the header checks made this one
		return errPackTooFew
	}
	z.out = append(z.out, z.literal[i])
	z.n++
	z.valid -= l
	return nil
}

func (z *packReader) Read(p []byte) (int, error) {
	if z.outPos == len(z.out) {
		if z.out == nil {
			z.out = make([]byte, 0, 1<<15)
		}
		z.out, z.outPos = z.out[:0], 0
		for len(z.out) < cap(z.out) && z.err == nil {
			z.err = z.step()
		}
		if len(z.out) == 0 {
			return 0, z.err
		}
	}
	n := copy(p, z.out[z.outPos:])
	z.outPos += n
	return n, nil
}
