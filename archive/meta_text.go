package archive

import (
	"encoding/binary"
	"sync"
)

// Help texts are kept as loaded, in a few large chunks, and filed into
// the texts table the first time one is asked for: a replay tool never
// asks, and the 100 MB archive's metadata is 60% help text (2,686
// records, 171 KB), whose string and two table nodes each were a fifth
// of pmval's start-up (perf, pmval -s 1). They are filed in record
// order, so the table (and pmdumplog -h's order, which follows it) is
// the one filing them at load gave.
//
// Each record is kept in a chunk as its kind, identifier and the length
// of its text (three native words), then the text: a list of places
// beside the chunks cost as much again as they hold, in its growth.
type pendingTexts struct {
	once   sync.Once
	chunks [][]byte
	cur    []byte // the chunk being filled
}

// textChunk is the least a chunk holds: a text larger than that has a
// chunk of its own.
const textChunk = 32 << 10

// textHead is the size of a kept record's header.
const textHead = 12

// keepText notes a help text record read at load, copying its text.
func (m *Meta) keepText(typ, ident uint32, text []byte) {
	p := m.pending
	if p == nil {
		p = &pendingTexts{}
		m.pending = p
	}
	if p.cur == nil || len(p.cur)+textHead+len(text) > cap(p.cur) {
		p.seal()
		p.cur = make([]byte, 0, max(textChunk, textHead+len(text)))
	}
	p.cur = binary.NativeEndian.AppendUint32(p.cur, typ)
	p.cur = binary.NativeEndian.AppendUint32(p.cur, ident)
	p.cur = binary.NativeEndian.AppendUint32(p.cur, uint32(len(text)))
	p.cur = append(p.cur, text...)
}

// seal ends the chunk being filled.
func (p *pendingTexts) seal() {
	if p.cur != nil {
		p.chunks = append(p.chunks, p.cur)
		p.cur = nil
	}
}

// textTable is the texts table, filed from the pending records the
// first time; safe for concurrent use once loading has ended.
func (m *Meta) textTable() *htab[*htab[string]] {
	if p := m.pending; p != nil {
		p.once.Do(func() {
			p.seal()
			for _, c := range p.chunks {
				// the chunk becomes one string its texts are cut from
				s := string(c)
				for off := 0; off < len(s); {
					typ := binary.NativeEndian.Uint32(c[off:])
					ident := binary.NativeEndian.Uint32(c[off+4:])
					n := int(binary.NativeEndian.Uint32(c[off+8:]))
					off += textHead
					m.addText(typ, ident, s[off:off+n])
					off += n
				}
			}
			p.chunks = nil
		})
	}
	return &m.texts
}
