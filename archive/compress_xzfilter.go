package archive

import (
	"encoding/binary"
	"io"
)

// An .xz block may run its content through up to three filters before
// LZMA2: a delta filter (for data of fixed-width samples) or a branch
// converter for machine code (x86, PowerPC, IA-64, ARM, ARM-Thumb,
// ARM64, SPARC), which turns relative call targets into absolute ones.
// liblzma 5.4, which libpcp reads .xz files with, undoes them after
// LZMA2, the last listed first; a filter it does not know makes the
// block unreadable. None changes the content's size.

// Filter IDs of the .xz format.
const (
	xzFilterDelta    = 0x03
	xzFilterX86      = 0x04
	xzFilterPowerPC  = 0x05
	xzFilterIA64     = 0x06
	xzFilterARM      = 0x07
	xzFilterARMThumb = 0x08
	xzFilterSPARC    = 0x09
	xzFilterARM64    = 0x0a
	xzFilterLZMA2    = 0x21
)

// xzFilter is one filter of a block's chain, before LZMA2.
type xzFilter struct {
	id    uint64
	dist  int    // the delta filter's distance, 1 to 256
	start uint32 // a branch converter's start offset
}

// bcj is a branch converter's shape (bcjShape).
type bcj struct{ align, tail uint32 }

// bcjShape is what liblzma requires of each branch converter: the
// alignment of its start offset, and how many bytes at the end of its
// input it may leave as they are (an instruction cut short); known is
// false for another filter. A switch, not a map the package's
// initialisation would build in every program that links it.
func bcjShape(id uint64) (shape bcj, known bool) {
	switch id {
	case xzFilterX86:
		return bcj{1, 5}, true
	case xzFilterPowerPC, xzFilterARM, xzFilterSPARC, xzFilterARM64:
		return bcj{4, 4}, true
	case xzFilterIA64:
		return bcj{16, 16}, true
	case xzFilterARMThumb:
		return bcj{2, 4}, true
	}
	return shape, false
}

// parseXZFilter checks a filter that is not the chain's last, with its
// properties, as liblzma checks it; ok is false for one it refuses.
func parseXZFilter(id uint64, props []byte) (f xzFilter, ok bool) {
	f.id = id
	if id == xzFilterDelta {
		if len(props) != 1 {
			return f, false
		}
		f.dist = int(props[0]) + 1
		return f, true
	}
	shape, known := bcjShape(id)
	switch {
	case !known:
		return f, false
	case len(props) == 4:
		f.start = binary.LittleEndian.Uint32(props)
	case len(props) != 0:
		return f, false
	}
	return f, f.start%shape.align == 0
}

// xzChain is a block's filters before LZMA2, in the header's order.
type xzChain []xzFilter

// undo reverses the chain over a block's whole content, in place.
func (c xzChain) undo(b []byte) {
	for i := len(c) - 1; i >= 0; i-- {
		// what run leaves at the end is an instruction cut short by
		// the block's end, which stays as it is
		c[i].unfilter().run(b)
	}
}

// writer returns a writer that undoes the chain on what it is given
// and writes the result to w; its flush writes what is held back.
func (c xzChain) writer(w io.Writer) *chainWriter {
	cw := &chainWriter{}
	for i := 0; i < len(c); i++ {
		fw := &filterWriter{u: c[i].unfilter(), w: w}
		cw.ws = append(cw.ws, fw)
		w = fw
	}
	cw.top = w
	return cw
}

// chainWriter feeds LZMA2's output through the chain's writers, the
// last filter's first.
type chainWriter struct {
	ws  []*filterWriter // ws[0] writes to the destination
	top io.Writer
}

func (c *chainWriter) Write(p []byte) (int, error) { return c.top.Write(p) }

// flush passes on the bytes each filter held back, from the innermost.
func (c *chainWriter) flush() error {
	for i := len(c.ws) - 1; i >= 0; i-- {
		if err := c.ws[i].flush(); err != nil {
			return err
		}
	}
	return nil
}

// unfilterer undoes one filter over consecutive pieces of a block's
// content; run converts a prefix of b in place and returns its length,
// the rest to be given again with the bytes that follow it.
type unfilterer interface {
	run(b []byte) int
}

func (f xzFilter) unfilter() unfilterer {
	switch f.id {
	case xzFilterDelta:
		return &deltaDec{dist: f.dist}
	case xzFilterX86:
		return &x86Dec{pos: f.start, prevPos: 1<<32 - 5}
	}
	return &bcjDec{id: f.id, pos: f.start}
}

// filterWriter runs one unfilterer on its input, keeping back the
// bytes it could not yet convert (at most the filter's tail).
type filterWriter struct {
	u    unfilterer
	w    io.Writer
	held []byte
	buf  []byte
}

func (fw *filterWriter) Write(p []byte) (int, error) {
	fw.buf = append(append(fw.buf[:0], fw.held...), p...)
	n := fw.u.run(fw.buf)
	fw.held = append(fw.held[:0], fw.buf[n:]...)
	if _, err := fw.w.Write(fw.buf[:n]); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (fw *filterWriter) flush() error {
	_, err := fw.w.Write(fw.held)
	fw.held = fw.held[:0]
	return err
}

// deltaDec undoes the delta filter: each byte was stored as its
// difference from the byte dist before it.
type deltaDec struct {
	dist int
	hist [256]byte
	pos  byte
}

func (d *deltaDec) run(b []byte) int {
	for i := range b {
		b[i] += d.hist[byte(d.dist+int(d.pos))]
		d.hist[d.pos] = b[i]
		d.pos--
	}
	return len(b)
}

// bcjDec undoes the branch converters of fixed-width instructions.
type bcjDec struct {
	id  uint64
	pos uint32 // the offset of b[0] in the content, plus the start
}

func (d *bcjDec) run(b []byte) int {
	var n int
	switch d.id {
	case xzFilterPowerPC:
		n = unPowerPC(b, d.pos)
	case xzFilterIA64:
		n = unIA64(b, d.pos)
	case xzFilterARM:
		n = unARM(b, d.pos)
	case xzFilterARMThumb:
		n = unARMThumb(b, d.pos)
	case xzFilterSPARC:
		n = unSPARC(b, d.pos)
	case xzFilterARM64:
		n = unARM64(b, d.pos)
	}
	d.pos += uint32(n)
	return n
}

// xzMaxFilters is the most filters a block may have, LZMA2 included.
const xzMaxFilters = 4

// parseXZFilters reads a block header's n filter flags from body[p:]:
// the filters before LZMA2, and LZMA2's dictionary property. ok is false
// where liblzma refuses the header: a filter it does not know, one out
// of place (LZMA2 must be last, and only last), bad properties, or
// padding that is not zero.
func parseXZFilters(body []byte, p, n int) (chain xzChain, prop byte, ok bool) {
	if n > xzMaxFilters {
		return nil, 0, false
	}
	for i := 0; i < n; i++ {
		id, ok1 := xzVarint(body, &p)
		size, ok2 := xzVarint(body, &p)
		if !ok1 || !ok2 || size > uint64(len(body)-p) {
			return nil, 0, false
		}
		props := body[p : p+int(size)]
		p += int(size)
		if i == n-1 {
			if id != xzFilterLZMA2 || len(props) != 1 || props[0] > 40 {
				return nil, 0, false
			}
			prop = props[0]
			break
		}
		f, ok := parseXZFilter(id, props)
		if !ok {
			return nil, 0, false
		}
		chain = append(chain, f)
	}
	for _, c := range body[p:] {
		if c != 0 {
			return nil, 0, false
		}
	}
	return chain, prop, true
}
