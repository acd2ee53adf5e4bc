package pdu

import (
	"encoding/binary"
	"math/bits"
)

// Flags of TEXT_REQ's type word, PM_TEXT_* in PCP: what kind of text
// (one-line or full help) about what (a metric or an instance domain).
// TextDirect is a flag local to the client's API, telling libpcp to skip
// its cache; PCP clears it before sending, and so does TextReq.Append.
const (
	TextOneLine = 1  // PM_TEXT_ONELINE
	TextHelp    = 2  // PM_TEXT_HELP
	TextPMID    = 4  // PM_TEXT_PMID
	TextInDom   = 8  // PM_TEXT_INDOM
	TextDirect  = 16 // PM_TEXT_DIRECT
)

// TextReq is a TEXT_REQ PDU: a request for a metric's or an instance
// domain's help text. Type combines TextOneLine or TextHelp with TextPMID
// or TextInDom; Ident is then a pcp.PMID or a pcp.InDom.
//
//	ident | type
type TextReq struct {
	Ident uint32
	Type  int32
}

// PDUType returns TypeTextReq.
func (*TextReq) PDUType() Type { return TypeTextReq }

// Append encodes the PDU onto dst, without TextDirect as PCP sends it.
func (m *TextReq) Append(dst []byte, from int32) []byte {
	dst, start := begin(dst, TypeTextReq, from)
	dst = appendU32(dst, m.Ident)
	dst = appendI32(dst, m.Type&^TextDirect)
	return finish(dst, start)
}

// Decode parses a TEXT_REQ PDU, which has exactly one length.
func (m *TextReq) Decode(pdu []byte) error {
	d, _ := newDecoder(pdu, TypeTextReq)
	*m = TextReq{Ident: d.U32("ident"), Type: d.I32("type")}
	return d.Done()
}

// Text is a TEXT PDU, the answer to TEXT_REQ. Ident repeats the request's
// identifier; the PDU does not say whether it is a PMID or an InDom.
//
//	ident (little-endian) | length | text, padded with '~'
//
// PCP's agents and pmcd put the identifier into the PDU without converting
// it to network byte order, so PCP on x86 sends it little-endian, and this
// package writes and reads it so. PCP's clients ignore it.
type Text struct {
	Ident uint32
	Text  string
}

// PDUType returns TypeText.
func (*Text) PDUType() Type { return TypeText }

// Append encodes the PDU onto dst.
func (m *Text) Append(dst []byte, from int32) []byte {
	dst, start := begin(dst, TypeText, from)
	dst = binary.LittleEndian.AppendUint32(dst, m.Ident)
	dst = appendI32(dst, int32(len(m.Text)))
	dst = appendTildePadded(dst, m.Text)
	return finish(dst, start)
}

// Decode parses a TEXT PDU.
func (m *Text) Decode(pdu []byte) error {
	d, _ := newDecoder(pdu, TypeText)
	*m = Text{Ident: bits.ReverseBytes32(d.U32("ident"))}
	m.Text = readPaddedString(d, "text")
	return d.Done()
}

// appendTildePadded appends s and fills to a 4-byte boundary with '~', the
// filler PCP writes after strings in its PDUs (rather than zeros) so that
// no stale buffer bytes go out.
func appendTildePadded(dst []byte, s string) []byte {
	dst = append(dst, s...)
	for n := len(s); n%4 != 0; n++ {
		dst = append(dst, '~')
	}
	return dst
}

// readPaddedString reads a 32-bit length and that many bytes padded to a
// 4-byte boundary, returning a copy. The filler's value is not checked, as
// PCP does not check it either.
func readPaddedString(d *decoder, what string) string {
	n := d.Count(1, what+" length")
	return string(d.Padded(n, what))
}
