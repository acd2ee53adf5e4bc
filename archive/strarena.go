package archive

import "unsafe"

// strArena hands out strings copied into shared blocks: the names of the
// 100 MB archive's 1,316 descriptors were as many allocations at load. A
// block's bytes are never written again once a string refers to them,
// and a string keeps its whole block alive, so the strings are ordinary
// Go strings to their users.
type strArena struct {
	block []byte
}

// strBlock is the size of a block; a string of more than a quarter of
// it is allocated on its own.
const strBlock = 16 << 10

// str returns b's bytes as a string.
func (a *strArena) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > strBlock/4 {
		return string(b)
	}
	if cap(a.block)-len(a.block) < len(b) {
		a.block = make([]byte, 0, strBlock)
	}
	at := len(a.block)
	a.block = append(a.block, b...)
	return unsafe.String(&a.block[at], len(b))
}
