package archive

import "sync"

// Help texts are kept as loaded, in a few large chunks, and filed into
// the texts table the first time one is asked for: a replay tool never
// asks, and the 100 MB archive's metadata is 60% help text (2,686
// records, 171 KB), whose string and two table nodes each were a fifth
// of pmval's start-up (perf, pmval -s 1). They are filed in record
// order, so the table (and pmdumplog -h's order, which follows it) is
// the one filing them at load gave.
type pendingTexts struct {
	once   sync.Once
	chunks [][]byte
	cur    []byte // the chunk being filled
	recs   []pendingText
}

// pendingText is one text record: its kind, identifier and where its
// text lies (chunk index, offsets).
type pendingText struct {
	typ, ident uint32
	chunk      int32
	from, to   uint32
}

// textChunk is the least a chunk holds: a text larger than that has a
// chunk of its own.
const textChunk = 32 << 10

// keepText notes a help text record read at load, copying its text.
func (m *Meta) keepText(typ, ident uint32, text []byte) {
	p := m.pending
	if p == nil {
		p = &pendingTexts{}
		m.pending = p
	}
	if p.cur == nil || len(p.cur)+len(text) > cap(p.cur) {
		p.seal()
		p.cur = make([]byte, 0, max(textChunk, len(text)))
	}
	from := len(p.cur)
	p.cur = append(p.cur, text...)
	p.recs = append(p.recs, pendingText{typ: typ, ident: ident, chunk: int32(len(p.chunks)), from: uint32(from), to: uint32(len(p.cur))})
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
			// each chunk becomes one string the texts are cut from
			strs := make([]string, len(p.chunks))
			for i, c := range p.chunks {
				strs[i] = string(c)
			}
			for _, r := range p.recs {
				m.addText(r.typ, r.ident, strs[r.chunk][r.from:r.to])
			}
			p.recs, p.chunks = nil, nil
		})
	}
	return &m.texts
}
