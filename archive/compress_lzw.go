package archive

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// The .Z format of compress(1), which libpcp reads through "gzip -dc":
// a three-byte header (0x1f 0x9d, then the largest code width and the
// block-mode flag) and LZW codes packed least significant bit first,
// 9 bits wide at first and one bit wider each time the table fills
// its current width. compress writes codes in groups of eight, so when
// the width changes, or the table is cleared, the rest of the current
// group is padding; Go's compress/lzw knows neither the header nor
// this padding, hence this decoder.

const (
	lzwMagic1     = 0x1f
	lzwMagic2     = 0x9d
	lzwBitsMask   = 0x1f
	lzwBlockMode  = 0x80
	lzwReserved   = 0x60
	lzwMaxBits    = 16
	lzwInitBits   = 9
	lzwClear      = 256
	lzwFirstBlock = 257
)

// errLZWCorrupt is a code that cannot occur in a well-formed stream;
// gzip stops with an error there, so libpcp reads nothing of the file.
var errLZWCorrupt = errors.New("corrupt LZW input")

// lzwReader decompresses a .Z stream. A stream that simply stops (a
// truncated file) ends without error after its last whole code, as gzip
// treats it: LZW carries no length or checksum to tell.
type lzwReader struct {
	src       *bufio.Reader
	blockMode bool
	maxBits   uint
	maxMax    int // 1 << maxBits: the table holds codes below it

	nBits   uint
	maxCode int // the largest code of the current width
	freeEnt int // the next table entry

	// the bit reader: bits buffered, and how many bits of the current
	// width's run have been read (for the group padding)
	acc    uint32
	nAcc   uint
	runPos int

	prefix [1 << lzwMaxBits]uint16
	suffix [1 << lzwMaxBits]byte
	stack  []byte // a decoded string, reversed
	out    []byte // decoded bytes, handed out by Read from outPos
	outPos int

	oldCode int
	finChar byte
	err     error
}

// newLZWReader reads the header of a .Z stream; src must be positioned at
// its magic number.
func newLZWReader(src *bufio.Reader) (*lzwReader, error) {
	var hdr [3]byte
	if _, err := io.ReadFull(src, hdr[:]); err != nil {
		return nil, fmt.Errorf("short .Z header: %w", err)
	}
	if hdr[0] != lzwMagic1 || hdr[1] != lzwMagic2 {
		return nil, errors.New("not in compress(1) format")
	}
	if hdr[2]&lzwReserved != 0 {
		// gzip warns and so exits with status 2, which libpcp takes as
		// a failed decompression
		return nil, fmt.Errorf("unknown .Z flags %#x", hdr[2]&lzwReserved)
	}
	maxBits := uint(hdr[2] & lzwBitsMask)
	if maxBits > lzwMaxBits {
		return nil, fmt.Errorf(".Z data compressed with %d bits, at most %d are read", maxBits, lzwMaxBits)
	}
	z := &lzwReader{
		src:       src,
		blockMode: hdr[2]&lzwBlockMode != 0,
		maxBits:   maxBits,
		maxMax:    1 << maxBits,
		oldCode:   -1,
		stack:     make([]byte, 0, 1<<lzwMaxBits),
	}
	// gzip starts with the 9-bit limit even when the header allows no
	// more than 9 bits, so it cannot read compress -b9's output; libpcp
	// reads .Z files through gzip, and so neither do we
	z.nBits, z.maxCode = lzwInitBits, 1<<lzwInitBits-1
	z.freeEnt = 256
	if z.blockMode {
		z.freeEnt = lzwFirstBlock
	}
	for i := 0; i < 256; i++ {
		z.suffix[i] = byte(i)
	}
	return z, nil
}

func (z *lzwReader) setWidth(n uint) {
	z.nBits = n
	if n == z.maxBits {
		z.maxCode = z.maxMax
	} else {
		z.maxCode = 1<<n - 1
	}
}

// skipGroup drops the padding after the last code of a width: the bits up
// to the end of the current group of eight codes.
func (z *lzwReader) skipGroup() error {
	group := int(z.nBits) * 8
	pad := (group - z.runPos%group) % group
	for pad > 0 {
		if z.nAcc == 0 {
			if _, err := z.src.ReadByte(); err != nil {
				return err
			}
			pad -= 8
			continue
		}
		n := min(uint(pad), z.nAcc)
		z.acc >>= n
		z.nAcc -= n
		pad -= int(n)
	}
	z.runPos = 0
	return nil
}

// code reads the next code; io.EOF when fewer bits than a code remain.
func (z *lzwReader) code() (int, error) {
	for z.nAcc < z.nBits {
		b, err := z.src.ReadByte()
		if err != nil {
			return 0, err
		}
		z.acc |= uint32(b) << z.nAcc
		z.nAcc += 8
	}
	c := int(z.acc & (1<<z.nBits - 1))
	z.acc >>= z.nBits
	z.nAcc -= z.nBits
	z.runPos += int(z.nBits)
	return c, nil
}

// step decodes one code into z.out.
func (z *lzwReader) step() error {
	if z.freeEnt > z.maxCode {
		if err := z.skipGroup(); err != nil {
			return err
		}
		z.setWidth(z.nBits + 1)
	}
	c, err := z.code()
	if err != nil {
		return err
	}
	if z.oldCode == -1 {
		if c >= 256 {
			return errLZWCorrupt
		}
		z.oldCode, z.finChar = c, byte(c)
		z.out = append(z.out, byte(c))
		return nil
	}
	if c == lzwClear && z.blockMode {
		// compress clears the table when its ratio falls; the old code
		// stays, so the first code after a clear adds entry 256, which
		// no code can name
		z.freeEnt = lzwClear
		if err := z.skipGroup(); err != nil {
			return err
		}
		z.setWidth(lzwInitBits)
		return nil
	}
	in := c
	z.stack = z.stack[:0]
	if c >= z.freeEnt {
		if c > z.freeEnt {
			return errLZWCorrupt
		}
		// the string being defined: the previous one and its first byte
		z.stack = append(z.stack, z.finChar)
		c = z.oldCode
	}
	for c >= 256 {
		z.stack = append(z.stack, z.suffix[c])
		c = int(z.prefix[c])
	}
	z.finChar = z.suffix[c]
	z.stack = append(z.stack, z.finChar)
	for i := len(z.stack) - 1; i >= 0; i-- {
		z.out = append(z.out, z.stack[i])
	}
	if z.freeEnt < z.maxMax {
		z.prefix[z.freeEnt] = uint16(z.oldCode)
		z.suffix[z.freeEnt] = z.finChar
		z.freeEnt++
	}
	z.oldCode = in
	return nil
}

func (z *lzwReader) Read(p []byte) (int, error) {
	if z.outPos == len(z.out) {
		z.out, z.outPos = z.out[:0], 0
		for len(z.out) < 1<<15 && z.err == nil {
			if err := z.step(); err != nil {
				if err == io.ErrUnexpectedEOF {
					err = io.EOF
				}
				z.err = err
			}
		}
		if len(z.out) == 0 {
			return 0, z.err
		}
	}
	n := copy(p, z.out[z.outPos:])
	z.outPos += n
	return n, nil
}
