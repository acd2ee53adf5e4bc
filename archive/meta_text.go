package archive

import (
	"encoding/binary"
	"errors"
	"io"
	"os"
	"sync"

	"github.com/gopcp/gopcp/internal/wire"
)

// Help texts are filed into the texts table the first time one is asked
// for: a replay tool never asks, and the 100 MB archive's metadata is
// 60% help text (2,686 records, 171 KB), whose string and two table
// nodes each were a fifth of pmval's start-up (perf, pmval -s 1). They
// are filed in record order, so the table (and pmdumplog -h's order,
// which follows it) is the one filing them at load gave.
//
// A metadata file streamed from disk keeps only where each text record
// lies (textPlace), and the records are read again from the file when
// one is asked for: their copies were 160 KB of the 1.1 MB pmval's
// replay of the 100 MB archive allocated, resident to its end, for
// texts it never asks for. Metadata read whole (compressed, or not a
// regular file) keeps each record as loaded, in a few large chunks: its
// kind, identifier and the length of its text (three native words),
// then the text.
type pendingTexts struct {
	once   sync.Once
	chunks [][]byte
	cur    []byte // the chunk being filled
	// src is the file the places are in, nil when texts are copied
	src    *textSource
	places [][]byte // textPlace entries, placeChunk bytes each at most
}

// textSource is the metadata file whose help text records are read
// again when asked for: its name and which file it was when loaded, so
// that another file put in its place is not read for it.
type textSource struct {
	path string
	id   fileID
}

// newTextSource is the source of the help texts of the metadata file
// at path, which st describes; nil where the file cannot be told from
// another, and its texts are copied.
func newTextSource(path string, st os.FileInfo) *textSource {
	id, ok := idOf(st)
	if !ok {
		return nil
	}
	return &textSource{path: path, id: id}
}

// textChunk is the least a chunk holds: a text larger than that has a
// chunk of its own.
const textChunk = 32 << 10

// textHead is the size of a kept record's header.
const textHead = 12

// A textPlace is a help text record's body (its kind, identifier and
// text) as a file offset and length: placeSize bytes in a chunk of
// places, so that the list grows a chunk at a time rather than by
// doubling, whose old copies would stay garbage to the end of a replay
// that never collects.
const (
	placeSize  = 12
	placeChunk = 4 << 10
)

// keepText notes a help text record read at load, copying its text.
func (m *Meta) keepText(typ, ident uint32, text []byte) {
	m.pendingTexts().keep(typ, ident, text)
}

// placeText notes a help text record read at load from src: its body is
// n bytes at file offset off.
func (m *Meta) placeText(src *textSource, off int64, n int) {
	p := m.pendingTexts()
	p.src = src
	if k := len(p.places); k == 0 || len(p.places[k-1])+placeSize > placeChunk {
		p.places = append(p.places, make([]byte, 0, placeChunk))
	}
	c := &p.places[len(p.places)-1]
	*c = binary.NativeEndian.AppendUint64(*c, uint64(off))
	*c = binary.NativeEndian.AppendUint32(*c, uint32(n))
}

func (m *Meta) pendingTexts() *pendingTexts {
	if m.pending == nil {
		m.pending = &pendingTexts{}
	}
	return m.pending
}

// keep copies a help text record into the chunks.
func (p *pendingTexts) keep(typ, ident uint32, text []byte) {
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

// reread reads the placed records from the file into the chunks, in
// record order. A record the file no longer holds as it was loaded (its
// length and type words, its trailer) is left out, as is every record
// when the file cannot be opened or is not the one loaded: those texts
// are then not found (pcp.ErrText), as if the records were gone.
func (p *pendingTexts) reread() {
	places := p.places
	p.places = nil
	f, err := os.Open(p.src.path)
	if err != nil {
		return
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil {
		return
	} else if id, ok := idOf(st); !ok || id != p.src.id {
		return
	}
	var w textWindow
	for _, c := range places {
		for ; len(c) >= placeSize; c = c[placeSize:] {
			off := int64(binary.NativeEndian.Uint64(c))
			n := int(binary.NativeEndian.Uint32(c[8:]))
			// the record: length and type words, body, trailer
			rec := w.read(f, off-8, n+12)
			if rec == nil {
				continue
			}
			d := wire.Decoder{B: rec}
			hlen, htype := d.I32("record length"), d.I32("record type")
			body := wire.Decoder{B: rec[8 : 8+n]}
			d.Off += n
			if hlen != int32(n+12) || htype != TypeText || d.I32("record trailer") != hlen || d.Err != nil {
				continue
			}
			if ok, typ, ident, text := decodeTextBytes(&body); ok {
				p.keep(typ, ident, text)
			}
		}
	}
}

// textWindow reads records of a file in increasing offsets, a window of
// at least textChunk bytes at a time.
type textWindow struct {
	buf []byte
	off int64
}

// read returns n bytes at off, nil if the file does not hold them.
func (w *textWindow) read(f *os.File, off int64, n int) []byte {
	if off < 0 {
		return nil
	}
	if off >= w.off && off+int64(n) <= w.off+int64(len(w.buf)) {
		return w.buf[off-w.off : off-w.off+int64(n)]
	}
	if cap(w.buf) < n {
		w.buf = make([]byte, max(n, textChunk))
	}
	w.buf = w.buf[:cap(w.buf)]
	got, err := f.ReadAt(w.buf, off)
	if err != nil && !errors.Is(err, io.EOF) {
		got = 0
	}
	w.buf, w.off = w.buf[:got], off
	if got < n {
		return nil
	}
	return w.buf[:n]
}

// textTable is the texts table, filed from the pending records the
// first time; safe for concurrent use once loading has ended.
func (m *Meta) textTable() *htab[*htab[string]] {
	if p := m.pending; p != nil {
		p.once.Do(func() {
			if p.src != nil {
				p.reread()
			}
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
