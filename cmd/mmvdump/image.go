package main

import (
	"bytes"
	"encoding/binary"
	"os"
)

// image is the file as PCP's mmvdump sees it through mmap: its bytes,
// then zeros up to the end of the last page. PCP computes offsets and
// checks them against the file's size in uint64 arithmetic that wraps,
// and reads some strings without checking them at all; wherever that
// still lands within the mapping it is followed here to the byte. A
// read that would leave the mapping (where PCP crashes or prints stray
// memory) is refused instead and strayed set.
type image struct {
	b       []byte
	mapped  uint64 // len(b) rounded up to the page size
	strayed bool   // a read PCP makes would have left the mapping
}

func newImage(b []byte) *image {
	page := uint64(os.Getpagesize())
	n := uint64(len(b))
	return &image{b: b, mapped: (n + page - 1) / page * page}
}

// size is the file's size, what PCP's checks compare offsets with.
func (m *image) size() uint64 { return uint64(len(m.b)) }

// fits is PCP's check that n bytes at off lie within the file, wrap
// and all; where the wrap lets through a read outside the mapping it
// fails here.
func (m *image) fits(off, n uint64) bool {
	if m.size() < off+n {
		return false
	}
	if !m.inside(off, n) {
		m.strayed = true
		return false
	}
	return true
}

// inside is whether n bytes at off lie within the mapping.
func (m *image) inside(off, n uint64) bool {
	return off <= m.mapped && n <= m.mapped-off
}

// at returns n bytes at off, zeros past the end of the file, and false
// when they go past the end of the mapping.
func (m *image) at(off, n uint64) ([]byte, bool) {
	if !m.inside(off, n) {
		m.strayed = true
		return nil, false
	}
	if off+n <= m.size() {
		return m.b[off : off+n], true
	}
	out := make([]byte, n)
	if off < m.size() {
		copy(out, m.b[off:])
	}
	return out, true
}

func (m *image) u32(off uint64) (uint32, bool) {
	p, ok := m.at(off, 4)
	if !ok {
		return 0, false
	}
	return binary.LittleEndian.Uint32(p), true
}

func (m *image) u64(off uint64) (uint64, bool) {
	p, ok := m.at(off, 8)
	if !ok {
		return 0, false
	}
	return binary.LittleEndian.Uint64(p), true
}

// cstr is what printf's %s prints of the bytes at off: up to the first
// NUL, which the zeros past the end of the file supply unless the file
// ends on a page boundary; false when the string would run past the
// mapping.
func (m *image) cstr(off uint64) (string, bool) {
	if off >= m.mapped {
		m.strayed = true
		return "", false
	}
	if off >= m.size() {
		return "", true
	}
	rest := m.b[off:]
	if i := bytes.IndexByte(rest, 0); i >= 0 {
		return string(rest[:i]), true
	}
	if m.mapped == m.size() {
		m.strayed = true
		return string(rest), false
	}
	return string(rest), true
}

// field is the NUL-terminated text of a fixed-size field of n bytes at
// off, as PCP copies it into a buffer of n bytes and ends it there.
func (m *image) field(off, n uint64) string {
	p, ok := m.at(off, n-1)
	if !ok {
		return ""
	}
	if i := bytes.IndexByte(p, 0); i >= 0 {
		p = p[:i]
	}
	return string(p)
}
