package series

import "unsafe"

// arena hands out strings cut from large shared blocks: a load formats
// hundreds of thousands of short value texts, and a heap allocation for
// each was a fifth of the loader's CPU (with the collection they cost).
// A block's bytes are never written once a string refers to them, and a
// string keeps its whole block alive, so the strings are ordinary Go
// strings to their users.
type arena struct {
	block []byte
	used  [][]byte    // blocks cut from since the last seal
	free  chan []byte // blocks given back by release, for reuse (nil: none)
}

const arenaBlock = 64 << 10

// room returns the free space of the current block, at least n bytes, to
// append to; keep makes the appended bytes a string.
func (a *arena) room(n int) []byte {
	if cap(a.block)-len(a.block) < n {
		a.block = a.newBlock(n)
	}
	return a.block[len(a.block):]
}

func (a *arena) newBlock(n int) []byte {
	if n > arenaBlock {
		return make([]byte, 0, n) // not reused
	}
	var b []byte
	select {
	case b = <-a.free:
	default:
		b = make([]byte, 0, arenaBlock)
	}
	a.used = append(a.used, b)
	return b[:0]
}

// seal ends the blocks cut from so far, returning them for release once
// no string cut from them is in use; the next string starts a new block.
// The loader seals at the end of each batch: a batch's encoded commands
// are the only strings cut from its blocks, so when Redis has answered
// the batch its blocks are taken again, and a load allocates a few
// batches' blocks instead of one for every 64 KB of commands.
func (a *arena) seal() [][]byte {
	u := a.used
	a.used, a.block = nil, nil
	return u
}

// release gives sealed blocks back for reuse (safe beside room and keep
// in another goroutine: the channel is all they share).
func (a *arena) release(blocks [][]byte) {
	for _, b := range blocks {
		select {
		case a.free <- b:
		default:
			return
		}
	}
}

// keep takes b, which must have been appended to what room returned, as
// the arena's next string.
func (a *arena) keep(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if cap(b) != cap(a.block)-len(a.block) || &b[:1][0] != &a.block[len(a.block):cap(a.block)][0] {
		// the appends outgrew the room given: b is a fresh slice of its
		// own, safe to keep as it is
		return string(b)
	}
	a.block = a.block[:len(a.block)+len(b)]
	return unsafe.String(&b[0], len(b))
}

// argSlab hands out argument lists cut from large shared blocks: an XADD
// a metric a record, each its own allocation before.
type argSlab struct {
	block []string
}

const slabBlock = 16 << 10

// slice returns an empty slice with room for n strings, which appends
// within that room never share with another.
func (s *argSlab) slice(n int) []string {
	if cap(s.block)-len(s.block) < n {
		s.block = make([]string, 0, max(slabBlock, n))
	}
	at := len(s.block)
	s.block = s.block[:at+n]
	return s.block[at : at : at+n]
}
