package pdu

import (
	"fmt"

	"github.com/gopcp/gopcp/pcp"
)

// Error is an ERROR PDU: a status code, and in the extended form a second
// 32-bit datum. pmcd greets each new client with the extended form, whose
// datum is its PDUInfo (see handshake.go); every other ERROR PDU PCP sends
// has the short form.
type Error struct {
	// Code is the code as it is on the wire: 0 or a negative PCP error
	// code. In the greeting pmcd translates PCP codes to their PCP 1.x
	// numbers; GreetingStatus undoes that.
	Code int32
	// Datum is the second word, meaningful only when Extended is set.
	Datum uint32
	// Extended selects the 20-byte form carrying Datum.
	Extended bool
}

const (
	errorLen         = HeaderSize + 4
	extendedErrorLen = HeaderSize + 8
)

// PDUType returns TypeError.
func (*Error) PDUType() Type { return TypeError }

// Err returns the code as a pcp.Error, or nil for a zero code.
func (m *Error) Err() error {
	if m.Code == 0 {
		return nil
	}
	return pcp.Error(m.Code)
}

// Append encodes the PDU onto dst.
func (m *Error) Append(dst []byte, from int32) []byte {
	dst, start := begin(dst, TypeError, from)
	dst = appendI32(dst, m.Code)
	if m.Extended {
		dst = appendU32(dst, m.Datum)
	}
	return finish(dst, start)
}

// Decode parses an ERROR PDU of either form; PCP accepts no other length.
func (m *Error) Decode(pdu []byte) error {
	d, h := newDecoder(pdu, TypeError)
	if d.Err == nil && h.Len != errorLen && h.Len != extendedErrorLen {
		d.Fail(0, fmt.Sprintf("length %d is neither %d nor %d", h.Len, errorLen, extendedErrorLen))
	}
	*m = Error{Code: d.I32("code")}
	if d.Err == nil && h.Len == extendedErrorLen {
		m.Datum = d.U32("datum")
		m.Extended = true
	}
	return d.Done()
}

// PCP 1.x numbered its error codes from -1000 where PCP 2 and later number
// them from -12345. pmcd's greeting still carries the old numbering.
const (
	errBaseV1 = 1000
	errBaseV2 = 12345
)

// errToV1 renumbers a current PCP error code as PCP 1.x did; errno codes
// and zero are unchanged.
func errToV1(code int32) int32 {
	if code <= -errBaseV2 {
		return code + errBaseV2 - errBaseV1
	}
	return code
}

// errFromV1 is the inverse of errToV1.
func errFromV1(code int32) int32 {
	if code <= -errBaseV1 {
		return code + errBaseV1 - errBaseV2
	}
	return code
}
