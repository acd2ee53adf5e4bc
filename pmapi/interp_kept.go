package pmapi

import "unsafe"

// keptBlocks holds copies of the value blocks of the histories, longer
// than a sample holds, in chunks of keptChunk (or one block's length,
// when longer), each sample naming its block by a 32-bit reference
// instead of a pointer.
type keptBlocks struct {
	cur    []byte   // the chunk being filled
	chunks [][]byte // every chunk, each at its whole capacity
	// last and lastRef are the block keep returned last and its
	// reference, for the add that follows it (refOf)
	last    *byte
	lastRef uint32
}

// keptChunk is the size of the chunks value blocks are kept in.
const keptChunk = 8 << 10

// keptOffBits is the bits of a reference that hold the offset in its
// chunk: a block starts before keptChunk in its chunk (one longer is
// alone in its own); the rest is the chunk's index.
const keptOffBits = 13

// keep copies b, nil if empty; the copy has no room after it, so that
// nothing appends into its neighbour.
func (k *keptBlocks) keep(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	if len(b) > cap(k.cur)-len(k.cur) {
		k.cur = make([]byte, 0, max(keptChunk, len(b)))
		k.chunks = append(k.chunks, k.cur[:cap(k.cur)])
	}
	off := len(k.cur)
	k.cur = append(k.cur, b...)
	kept := k.cur[off:len(k.cur):len(k.cur)]
	k.last = nil
	if idx := len(k.chunks) - 1; idx < 1<<(32-keptOffBits) && off < 1<<keptOffBits {
		k.last, k.lastRef = unsafe.SliceData(kept), uint32(idx)<<keptOffBits|uint32(off)
	}
	return kept
}

// refOf is the reference of b, when it is the block keep returned last.
func (k *keptBlocks) refOf(b []byte) (uint32, bool) {
	if k == nil || k.last == nil || unsafe.SliceData(b) != k.last {
		return 0, false
	}
	return k.lastRef, true
}

// at is the block of n bytes at ref.
func (k *keptBlocks) at(ref uint32, n int) []byte {
	off := int(ref & (1<<keptOffBits - 1))
	return k.chunks[ref>>keptOffBits][off : off+n : off+n]
}
