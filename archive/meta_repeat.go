package archive

import (
	"bytes"

	"github.com/gopcp/gopcp/internal/wire"
	"github.com/gopcp/gopcp/pcp"
)

// pmlogger writes an instance domain again whenever it may have changed,
// and mostly it has not: in QA archive 20180102, 1,205 of 1,576 records
// repeat the one before them for their instance domain. libpcp keeps
// each record's buffer; keeping each decoded again made the instance
// domains most of a replay tool's heap. A record whose bytes after its
// time and instance domain are those of the last full record of its
// instance domain shares that record's sorted instances and names.

// lastInDom is the last full record loaded for an instance domain: its
// type, its bytes after the time and instance domain, and what they
// decoded to.
type lastInDom struct {
	typ  int32
	tail []byte
	id   *InDom
}

// inDomTail returns the stamp, instance domain and the bytes after them of
// an instance domain record (body over the record's body alone, at its
// start); ok is false when the record is too short to have them.
func inDomTail(body wire.Decoder, typ int32) (stamp pcp.Timestamp, indom pcp.InDom, tail []byte, ok bool) {
	stamp = readStamp(&body, typ == TypeInDomV2)
	indom = pcp.InDom(body.U32("instance domain"))
	if body.Err != nil {
		return stamp, indom, nil, false
	}
	return stamp, indom, body.B[body.Off:], true
}

// repeatedInDom files the record in body as a repeat of the last full one
// of its instance domain when its bytes say it is one, moving body past
// it; false leaves body as it was for decodeInDom.
func (m *Meta) repeatedInDom(body *wire.Decoder, typ int32) bool {
	if typ == TypeInDomDelta {
		return false
	}
	stamp, indom, tail, ok := inDomTail(*body, typ)
	if !ok {
		return false
	}
	l, found := m.last[indom]
	if !found || l.typ != typ || !bytes.Equal(l.tail, tail) {
		return false
	}
	m.addInDom(indom, &InDom{Stamp: stamp, Insts: l.id.Insts, Names: l.id.Names})
	body.Off = len(body.B)
	return true
}

// noteInDom remembers id, decoded from the record in body, for
// repeatedInDom. Delta records are not shared: resolving them rewrites
// them.
func (m *Meta) noteInDom(body *wire.Decoder, typ int32, id *InDom) {
	if typ == TypeInDomDelta || id.Delta {
		return
	}
	_, indom, tail, ok := inDomTail(*body, typ)
	if !ok {
		return
	}
	if m.last == nil {
		m.last = map[pcp.InDom]lastInDom{}
	}
	// tail is in the loader's window, which moves on: keep a copy, in
	// the instance domain's buffer from before.
	l := m.last[indom]
	m.last[indom] = lastInDom{typ: typ, tail: append(l.tail[:0], tail...), id: id}
}

// lastOf is the last full record of the instance domain of the record in
// body, nil when there is none.
func (m *Meta) lastOf(body *wire.Decoder, typ int32) *InDom {
	if _, indom, _, ok := inDomTail(*body, typ); ok {
		return m.last[indom].id
	}
	return nil
}
