package archive

import (
	"io"
	"sync"

	"github.com/gopcp/gopcp/pdu"
)

// windowPool keeps the read window of a closed volume for the next
// volume opened. A replay opens volumes many times over (a reader for
// the records, others for the archive's end, for each placing), and each
// fresh window was a new 64 KB or more of heap: 1.1 MB of the 2.6 MB
// pmval allocated over a 4.7 MB QA archive.
type windowPool struct {
	mu    sync.Mutex
	spare []byte
}

// get returns a buffer of length n, the spare one when it is large enough.
func (p *windowPool) get(n, old int) []byte {
	p.mu.Lock()
	b := p.spare
	if cap(b) >= n {
		p.spare = nil
		p.mu.Unlock()
		return b[:n]
	}
	p.mu.Unlock()
	// A window outgrown by a large record grows by doubling at least,
	// so records growing a little at a time do not each allocate one.
	c := n
	if n > windowSize && old > 0 {
		c = max(n, 2*old)
	}
	return make([]byte, n, c)
}

// put keeps b for the next get, if it is larger than the one kept.
func (p *windowPool) put(b []byte) {
	if cap(b) == 0 {
		return
	}
	p.mu.Lock()
	if cap(b) > cap(p.spare) {
		p.spare = b[:0]
	}
	p.mu.Unlock()
}

// record returns the record of rlen bytes of body at start (its two
// length words and the body) and, when the bytes before it can be read
// with it, frame: pdu.LogRecordPrefix bytes and then the body, in the
// volume's own buffer, for decoding in place instead of a copy of every
// record (frame is nil otherwise: an .xz volume, damaged blocks). Both
// are valid until the volume's next read.
func (v *volume) record(start, rlen int) (rec, frame []byte) {
	const lead = pdu.LogRecordPrefix - 4
	if v.xz != nil || len(v.holes) > 0 || start < lead {
		return v.at(start, rlen+8), nil
	}
	b := v.at(start-lead, lead+rlen+8)
	if b == nil {
		return nil, nil
	}
	return b[lead:], b[:lead+4+rlen]
}

// slide serves a forward read that begins inside the window and runs
// past its end: the bytes from off on are moved to the front and only
// the rest is read. Refilling from off re-read them, and records of
// 41 KB through a 64 KB window made every read copy 64 KB from the
// kernel for 41 used: 162 MB for a 100 MB volume.
func (v *volume) slide(off, n int) []byte {
	kept := v.winOff + len(v.win) - off
	end := min(off+max(windowSize, n), v.size)
	if cap(v.win) < end-off {
		w := v.pool.get(end-off, cap(v.win))
		copy(w, v.win[off-v.winOff:])
		v.win = w
	} else {
		copy(v.win[:kept], v.win[off-v.winOff:])
		v.win = v.win[:end-off]
	}
	v.winOff = off
	got, err := v.f.ReadAt(v.win[kept:], int64(off+kept))
	v.read += int64(got)
	if err != nil && err != io.EOF {
		v.win, v.winOff = v.win[:0], 0
		return nil
	}
	v.win = v.win[:kept+got]
	if n > len(v.win) {
		return nil
	}
	return v.win[:n]
}
