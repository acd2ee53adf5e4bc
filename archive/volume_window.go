package archive

import (
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
