package pdu

import "sync"

// A Reader's storage starts at firstBuf bytes and grows with the PDUs it
// reads. Release gives storage of up to maxPooledBuf bytes back to a pool
// shared by all Readers, from which a Reader without storage takes its
// next: a program holding many streams that are idle most of the time
// (pmproxy's contexts, one pmcd connection each) then holds storage only
// for the streams being read. Larger storage stays with its Reader, whose
// stream carries large PDUs and would grow it again.
const (
	firstBuf     = 1 << 10
	maxPooledBuf = 16 << 10
)

// pooledBuf carries storage through the pool without an allocation per
// Put.
type pooledBuf struct{ b []byte }

var readBufs sync.Pool

// takeBuf gives the Reader storage from the pool, or new storage.
func (r *Reader) takeBuf() {
	if p, ok := readBufs.Get().(*pooledBuf); ok {
		r.buf, r.box = p.b[:0], p
		p.b = nil
		return
	}
	r.buf, r.box = make([]byte, 0, firstBuf), nil
}

// Release lets the Reader's storage go until its next ReadPDU, which
// takes storage from a pool shared by all Readers; the PDU ReadPDU last
// returned must no longer be used. Storage over 16 KiB is kept.
func (r *Reader) Release() {
	if cap(r.buf) == 0 || cap(r.buf) > maxPooledBuf {
		return
	}
	p := r.box
	if p == nil {
		p = new(pooledBuf)
	}
	p.b = r.buf[:0]
	r.buf, r.box = nil, nil
	readBufs.Put(p)
}
