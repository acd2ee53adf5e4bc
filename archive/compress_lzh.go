package archive

import (
	"bufio"
	"errors"
	"io"
)

// SCO's LZH format, which gzip -dc reads (libpcp runs it for .gz, .Z
// and .z files): the magic 0x1f 0xa0, then LHA's -lh5- data with no
// archive header around it: LZSS over an 8 KiB window, coded in blocks,
// each a count of codes (16 bits, 0 ending the stream) and three
// Huffman tables given by their code lengths (a table of the lengths'
// own code, the literal-and-length table, the distance table), bits
// read most significant first. The stream carries neither length nor
// check, and gzip 1.12 reads zero bits past the end of the file, so a
// truncated file decodes (with garbage at its end) without error; the
// one failure is a table whose code lengths do not add up ("Bad
// table"). gzip reads nothing after an LZH member.
//
// The decoder follows gzip 1.12's reading of the tables, including
// what it does with streams no LHA program writes: a table slot left
// from an earlier block where a new table does not fill it, a code of
// zero bits where a table has a single code. Where gzip would run off
// its arrays or loop without end (a tree walk through stale links),
// this reader stops with "Bad table" instead. A match reaching back
// before the stream's start reads zeros here; gzip reads what its window
// holds, zeros for a first member (LHA's encoders make no such match).

const (
	lzhMagic1    = 0x1f
	lzhMagic2    = 0xa0
	lzhDictBits  = 13
	lzhDictSize  = 1 << lzhDictBits
	lzhThreshold = 3
	lzhNC        = 256 + 256 + 2 - lzhThreshold // literals and match lengths
	lzhCBits     = 9
	lzhNP        = lzhDictBits + 1 // distance codes
	lzhNT        = 16 + 3          // code-length codes
	lzhPBits     = 4
	lzhTBits     = 5
	lzhNPT       = 1 << lzhTBits
	lzhNodes     = 4096 // table and tree indices gzip can make stay below
)

var errLZHTable = errors.New("Bad table")

type lzhReader struct {
	src *bufio.Reader

	bitbuf   uint16 // the next 16 bits of the stream
	sub      uint   // the byte being taken into bitbuf
	bitcount int    // its bits not yet in bitbuf

	blocksize int
	ptLen     [lzhNPT]uint8
	cLen      [lzhNC + 1 + 20 + 1<<lzhCBits]uint8 // a run of zeros may pass NC
	ptTable   [256]uint16
	cTable    [4096]uint16
	left      [lzhNodes]uint16
	right     [lzhNodes]uint16

	window   [lzhDictSize]byte
	pos      int // output position in the window
	copyFrom int // a match's next source position
	copyLeft int // and how much of it is left

	out    []byte
	outPos int
	done   bool
	err    error
}

// newLZHReader starts an LZH member; src must be at its magic number.
func newLZHReader(src *bufio.Reader) (*lzhReader, error) {
	var magic [2]byte
	if _, err := io.ReadFull(src, magic[:]); err != nil || magic[0] != lzhMagic1 || magic[1] != lzhMagic2 {
		return nil, errors.New("not in LZH format")
	}
	z := &lzhReader{src: src}
	z.fill(16)
	return z, z.err
}

// fill takes n more bits into bitbuf; past the end of the file the
// bits are zeros, as gzip has them.
func (z *lzhReader) fill(n int) {
	z.bitbuf <<= n
	for n > z.bitcount {
		n -= z.bitcount
		z.bitbuf |= uint16(z.sub << n)
		b, err := z.src.ReadByte()
		if err != nil && err != io.EOF && z.err == nil {
			z.err = err
		}
		z.sub, z.bitcount = uint(b), 8
	}
	z.bitcount -= n
	z.bitbuf |= uint16(z.sub >> z.bitcount)
}

func (z *lzhReader) bits(n int) int {
	x := int(z.bitbuf >> (16 - n))
	z.fill(n)
	return x
}

// walk follows a tree below a table entry by the bits under mask and
// after it, to a symbol below limit.
func (z *lzhReader) walk(c int, mask uint16, limit int) (int, error) {
	for steps := 0; c >= limit; steps++ {
		if c >= lzhNodes || steps == lzhNodes {
			return 0, errLZHTable
		}
		if z.bitbuf&mask != 0 {
			c = int(z.right[c])
		} else {
			c = int(z.left[c])
		}
		mask >>= 1
	}
	return c, nil
}

// makeTable builds the lookup table of tableBits bits for the code of
// lengths bitLen, with a tree below each slot for longer codes.
func (z *lzhReader) makeTable(bitLen []uint8, tableBits int, table []uint16) error {
	var count, weight [17]uint16
	var start [18]uint16
	for _, l := range bitLen {
		count[l]++
	}
	for i := 1; i <= 16; i++ {
		// 16-bit sums, as gzip's: a code over-full by a multiple of
		// 2^16 passes here
		start[i+1] = start[i] + count[i]<<(16-i)
	}
	if start[17] != 0 {
		return errLZHTable
	}
	jut := 16 - tableBits
	for i := 1; i <= tableBits; i++ {
		start[i] >>= jut
		weight[i] = 1 << (tableBits - i)
	}
	for i := tableBits + 1; i <= 16; i++ {
		weight[i] = 1 << (16 - i)
	}
	if i := int(start[tableBits+1] >> jut); i != 0 {
		for ; i < 1<<tableBits; i++ {
			table[i] = 0
		}
	}
	avail := len(bitLen)
	mask := uint(1) << (15 - tableBits)
	for ch, l := range bitLen {
		if l == 0 {
			continue
		}
		next := uint(start[l]) + uint(weight[l])
		if int(l) <= tableBits {
			if next > 1<<tableBits {
				return errLZHTable
			}
			for i := uint(start[l]); i < next; i++ {
				table[i] = uint16(ch)
			}
		} else {
			k := uint(start[l])
			p := &table[k>>jut]
			for i := int(l) - tableBits; i > 0; i-- {
				if *p == 0 {
					if avail >= lzhNodes {
						return errLZHTable
					}
					z.left[avail], z.right[avail] = 0, 0
					*p = uint16(avail)
					avail++
				}
				if *p >= lzhNodes {
					return errLZHTable
				}
				if k&mask != 0 {
					p = &z.right[*p]
				} else {
					p = &z.left[*p]
				}
				k <<= 1
			}
			*p = uint16(ch)
		}
		start[l] = uint16(next)
	}
	return nil
}

// readPtLen reads the lengths of the code-length code (nn codes, their
// count in nbit bits, three zeros at most after the special'th) or of
// the distance code.
func (z *lzhReader) readPtLen(nn, nbit, special int) error {
	n := z.bits(nbit)
	if n == 0 {
		c := z.bits(nbit)
		clear(z.ptLen[:nn])
		for i := range z.ptTable {
			z.ptTable[i] = uint16(c)
		}
		return nil
	}
	i := 0
	for i < n {
		c := int(z.bitbuf >> 13)
		if c == 7 {
			for mask := uint16(1) << 12; mask&z.bitbuf != 0; mask >>= 1 {
				c++
			}
			if c > 16 {
				return errLZHTable
			}
		}
		if c < 7 {
			z.fill(3)
		} else {
			z.fill(c - 3)
		}
		z.ptLen[i] = uint8(c)
		i++
		if i == special {
			for c = z.bits(2); c > 0; c-- {
				if i >= len(z.ptLen) {
					return errLZHTable // past gzip's array
				}
				z.ptLen[i] = 0
				i++
			}
		}
	}
	clear(z.ptLen[min(i, nn):nn])
	return z.makeTable(z.ptLen[:nn], 8, z.ptTable[:])
}

// readCLen reads the lengths of the literal-and-length code.
func (z *lzhReader) readCLen() error {
	n := z.bits(lzhCBits)
	if n == 0 {
		c := z.bits(lzhCBits)
		clear(z.cLen[:lzhNC])
		for i := range z.cTable {
			z.cTable[i] = uint16(c)
		}
		return nil
	}
	i := 0
	for i < n {
		c, err := z.walk(int(z.ptTable[z.bitbuf>>8]), 1<<7, lzhNT)
		if err != nil {
			return err
		}
		z.fill(int(z.ptLen[c]))
		if c > 2 {
			z.cLen[i] = uint8(c - 2)
			i++
			continue
		}
		switch c {
		case 0:
			c = 1
		case 1:
			c = z.bits(4) + 3
		default:
			c = z.bits(lzhCBits) + 20
		}
		clear(z.cLen[i : i+c])
		i += c
	}
	clear(z.cLen[min(i, lzhNC):lzhNC])
	return z.makeTable(z.cLen[:lzhNC], 12, z.cTable[:])
}

// decodeC returns the next literal or match length code, lzhNC at the
// end of the stream.
func (z *lzhReader) decodeC() (int, error) {
	if z.blocksize == 0 {
		if z.blocksize = z.bits(16); z.blocksize == 0 {
			return lzhNC, nil
		}
		if err := z.readPtLen(lzhNT, lzhTBits, 3); err != nil {
			return 0, err
		}
		if err := z.readCLen(); err != nil {
			return 0, err
		}
		if err := z.readPtLen(lzhNP, lzhPBits, -1); err != nil {
			return 0, err
		}
	}
	z.blocksize--
	j, err := z.walk(int(z.cTable[z.bitbuf>>4]), 1<<3, lzhNC)
	if err != nil {
		return 0, err
	}
	z.fill(int(z.cLen[j]))
	return j, nil
}

// decodeP returns a match's distance less one.
func (z *lzhReader) decodeP() (int, error) {
	j, err := z.walk(int(z.ptTable[z.bitbuf>>8]), 1<<7, lzhNP)
	if err != nil {
		return 0, err
	}
	z.fill(int(z.ptLen[j]))
	if j != 0 {
		j = 1<<(j-1) + z.bits(j-1)
	}
	return j, nil
}

// step decodes into z.out until it holds n bytes or the stream ends.
func (z *lzhReader) step(n int) error {
	for len(z.out) < n {
		if z.copyLeft > 0 {
			b := z.window[z.copyFrom]
			z.window[z.pos] = b
			z.out = append(z.out, b)
			z.copyFrom = (z.copyFrom + 1) & (lzhDictSize - 1)
			z.pos = (z.pos + 1) & (lzhDictSize - 1)
			z.copyLeft--
			continue
		}
		c, err := z.decodeC()
		switch {
		case err != nil:
			return err
		case z.err != nil:
			return z.err
		case c == lzhNC:
			return io.EOF
		case c < 256:
			z.window[z.pos] = byte(c)
			z.out = append(z.out, byte(c))
			z.pos = (z.pos + 1) & (lzhDictSize - 1)
			continue
		}
		d, err := z.decodeP()
		if err != nil {
			return err
		}
		z.copyLeft = c - (256 - lzhThreshold)
		z.copyFrom = (z.pos - d - 1) & (lzhDictSize - 1)
	}
	return nil
}

func (z *lzhReader) Read(p []byte) (int, error) {
	if z.outPos == len(z.out) {
		if z.done {
			return 0, z.err
		}
		if z.out == nil {
			z.out = make([]byte, 0, 1<<15)
		}
		z.out, z.outPos = z.out[:0], 0
		if err := z.step(cap(z.out)); err != nil {
			z.done, z.err = true, err
		}
		if len(z.out) == 0 {
			return 0, z.err
		}
	}
	n := copy(p, z.out[z.outPos:])
	z.outPos += n
	return n, nil
}
