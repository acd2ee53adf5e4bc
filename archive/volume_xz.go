package archive

import (
	"errors"
	"os"
	"slices"
	"sync"
	"weak"

	"github.com/gopcp/gopcp/pcp"
)

// An .xz volume of LZMA2 blocks is read as libpcp reads it: a block at a
// time, found through the stream's index, each block decoded whole when
// a read first needs it and kept in a small cache. So opening an archive
// and reading its first records decodes the first block, not the volume,
// and a damaged block is a hole that only reads touching it see.

// xzCacheBlocks is how many decoded blocks a volume keeps. libpcp keeps
// four; two serve a reader moving either way across a block boundary,
// and each block costs its whole size (10 MiB from pmlogger_daily's xz).
const xzCacheBlocks = 2

// xzMaxBlock bounds a block decoded into memory. pmlogger_daily's xz
// writes blocks of 10 MiB. A larger block (xz without threads makes the
// whole file one block) is read through a decompressed temporary file
// instead, streamed: a block of 40 MiB held in memory took the garbage
// collector's goal, and so the peak, past twice its size.
const xzMaxBlock = 16 << 20

// xzVolume is the content of one .xz volume, shared by the archive's
// readers (each through its own volume), safe for concurrent use.
type xzVolume struct {
	f    *os.File
	x    *xzFile
	size int

	mu    sync.Mutex
	keep  int         // the blocks cached, xzCacheBlocks unless set
	cache []*xzCached // most recently used first
	spare []byte      // the buffer of an evicted block no reader holds
	bad   map[int]bool
	// decoded counts block decodes, for tests of what a read costs.
	decoded int
}

// xzCached is one decoded block. pins counts the volumes holding a
// slice of data; its buffer is reused only when none does.
type xzCached struct {
	i       int
	data    []byte
	pins    int
	evicted bool
}

// newXZVolume reads f's index and returns the volume, or nil (and no
// error) when the file must be read as a stream: a check this reader
// does not compute, or a block too large.
func newXZVolume(f *os.File) (*xzVolume, error) {
	if !readsMagic(f, xzMagic) {
		return nil, errors.New("not in xz format")
	}
	x, err := readXZIndex(f)
	if err != nil {
		return nil, err
	}
	for _, b := range x.blocks {
		if b.size > xzMaxBlock {
			return nil, nil
		}
	}
	if !x.blockwise() {
		return nil, nil
	}
	size := int64(0)
	if n := len(x.blocks); n > 0 {
		size = x.blocks[n-1].end
	}
	if size != int64(int(size)) {
		return nil, nil
	}
	return &xzVolume{f: f, x: x, size: int(size), keep: xzCacheBlocks, bad: map[int]bool{}}, nil
}

// block returns block i decoded and pinned, or nil when it is damaged.
func (z *xzVolume) block(i int) *xzCached {
	z.mu.Lock()
	defer z.mu.Unlock()
	for k, c := range z.cache {
		if c.i == i {
			copy(z.cache[1:k+1], z.cache[:k])
			z.cache[0] = c
			c.pins++
			return c
		}
	}
	if z.bad[i] {
		return nil
	}
	// The block to go goes first, its buffer free for this one when no
	// reader holds it: a third buffer for a walk from block to block
	// was a tenth of pmlogcheck's peak.
	if len(z.cache) >= max(z.keep, 1) {
		old := z.cache[len(z.cache)-1]
		z.cache = z.cache[:len(z.cache)-1]
		old.evicted = true
		if old.pins == 0 {
			z.keepSpare(old.data)
		}
	}
	b := z.x.blocks[i]
	buf := z.spare[:0]
	z.spare = nil
	if int64(cap(buf)) < b.size {
		putBlockBuffer(buf)
		buf = getBlockBuffer(b.size)
	}
	w := &fillWriter{b: buf}
	z.decoded++
	if _, err := z.x.copyBlock(w, z.f, b, false); err != nil || int64(len(w.b)) != b.size {
		// libpcp's read of the block fails whatever the cause: the
		// block is a hole
		z.bad[i] = true
		z.spare = buf
		return nil
	}
	c := &xzCached{i: i, data: w.b, pins: 1}
	z.cache = append([]*xzCached{c}, z.cache...)
	return c
}

// keepSpare keeps b for the next block, the larger of it and the spare
// kept, the other for other volumes.
func (z *xzVolume) keepSpare(b []byte) {
	if cap(b) < cap(z.spare) {
		b, z.spare = z.spare, b
	}
	putBlockBuffer(z.spare)
	z.spare = b
}

func (z *xzVolume) unpin(c *xzCached) {
	if c == nil {
		return
	}
	z.mu.Lock()
	c.pins--
	if c.pins == 0 && c.evicted {
		z.keepSpare(c.data)
	}
	z.mu.Unlock()
}

// release gives the buffers of the blocks no reader holds to the next
// volume opened; z is not read again.
func (z *xzVolume) release() {
	z.mu.Lock()
	defer z.mu.Unlock()
	for _, c := range z.cache {
		if c.pins == 0 {
			putBlockBuffer(c.data)
		}
	}
	z.cache = nil
	putBlockBuffer(z.spare)
	z.spare = nil
}

// blockBuffers holds the block buffers of closed .xz volumes for the
// volumes opened next. pmlogcheck reads each volume through a reader of
// its own (pass 0) and then through the archive's (pass 3): a new
// buffer for each block each time left the old ones to the collector,
// and resident until the runtime gave their pages back, 33 MB against
// PCP's 24 for a QA archive of 13.6 MB in two blocks. The buffers are
// held weakly, so that a long-running process lets them go at its next
// collection (whose freed pages the next buffer then takes); a
// sync.Pool missed often, as a buffer put on one P is not found from
// another until a collection.
var blockBuffers struct {
	mu   sync.Mutex
	free []weak.Pointer[blockBuffer]
}

type blockBuffer struct{ b []byte }

// maxBlockBuffers bounds the buffers held: a volume caches two blocks.
const maxBlockBuffers = 4

// getBlockBuffer returns an empty buffer of capacity n or more.
func getBlockBuffer(n int64) []byte {
	bb := &blockBuffers
	bb.mu.Lock()
	defer bb.mu.Unlock()
	for i := 0; i < len(bb.free); i++ {
		p := bb.free[i].Value()
		if p != nil && int64(cap(p.b)) < n {
			continue
		}
		bb.free = slices.Delete(bb.free, i, i+1)
		i--
		if p != nil {
			return p.b
		}
	}
	return make([]byte, 0, n)
}

func putBlockBuffer(b []byte) {
	if cap(b) == 0 {
		return
	}
	bb := &blockBuffers
	bb.mu.Lock()
	defer bb.mu.Unlock()
	if len(bb.free) == maxBlockBuffers {
		bb.free = slices.Delete(bb.free, 0, 1)
	}
	bb.free = append(bb.free, weak.Make(&blockBuffer{b[:0]}))
}

// find returns the index of the block holding content offset off.
func (z *xzVolume) find(off int) int {
	lo, hi := 0, len(z.x.blocks)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if z.x.blocks[m].end <= int64(off) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// xzAt is volume.at for an .xz volume: n bytes at off (in bounds), or
// nil when a block they lie in is damaged.
func (v *volume) xzAt(off, n int) []byte {
	z := v.xz
	i := z.find(off)
	if i >= len(z.x.blocks) {
		return nil
	}
	b := z.x.blocks[i]
	start := int(b.end - b.size)
	if off+n <= int(b.end) {
		c := v.xzBlock
		if c == nil || c.i != i {
			c = z.block(i)
			if c == nil {
				return nil
			}
			z.unpin(v.xzBlock)
			v.xzBlock = c
		}
		return c.data[off-start : off-start+n]
	}
	// Across blocks: gathered into the volume's own buffer.
	if cap(v.win) < n {
		v.win = make([]byte, n)
	}
	out := v.win[:n]
	for done := 0; done < n; i++ {
		c := z.block(i)
		if c == nil {
			return nil
		}
		b := z.x.blocks[i]
		start := int(b.end - b.size)
		done += copy(out[done:], c.data[off+done-start:])
		z.unpin(c)
	}
	return out
}

// fillWriter appends to b, which the caller sized.
type fillWriter struct{ b []byte }

func (w *fillWriter) Write(p []byte) (int, error) {
	if len(p) > cap(w.b)-len(w.b) {
		return 0, errors.New("block larger than its index entry")
	}
	if len(p) > 0 && &w.b[:len(w.b)+1][len(w.b)] == &p[0] {
		// decoded in place (copyBlock)
		w.b = w.b[:len(w.b)+len(p)]
		return len(p), nil
	}
	w.b = append(w.b, p...)
	return len(p), nil
}

// xzVolumeFor returns the shared reader of .xz volume vol at name, or
// nil when it must be decompressed whole.
func (a *Archive) xzVolumeFor(vol int, name string) (*xzVolume, error) {
	a.tempMu.Lock()
	defer a.tempMu.Unlock()
	if z, ok := a.xzs[vol]; ok {
		return z, nil
	}
	if _, ok := a.temps[vol]; ok {
		return nil, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	z, err := newXZVolume(f)
	if err != nil {
		f.Close()
		return nil, errLogRec(0, "cannot decompress "+name+": "+err.Error())
	}
	if z == nil {
		f.Close()
		return nil, nil
	}
	if a.xzs == nil {
		a.xzs = map[int]*xzVolume{}
	}
	a.xzs[vol] = z
	return z, nil
}

// errXZLabel is libpcp's failed read of the label when the first block
// of a volume is damaged.
func errXZLabel(name string) error {
	return &Error{File: name, Code: pcp.ErrLabel, Msg: "damaged xz block"}
}

// xzVolumeOf returns the shared block reader of volume vol when its file
// is an .xz one this reader decodes by blocks, else nil.
func (a *Archive) xzVolumeOf(vol int, path string) (*xzVolume, error) {
	name, suffix, err := compressedName(path)
	if err != nil || suffix != ".xz" {
		return nil, nil
	}
	return a.xzVolumeFor(vol, name)
}
