package pdu

import (
	"encoding/binary"
	"fmt"

	"github.com/gopcp/gopcp/internal/wire"
	"github.com/gopcp/gopcp/pcp"
)

// DecodeError describes a PDU that does not follow its layout. It wraps
// pcp.ErrIPC, the code PCP gives for any protocol failure.
type DecodeError struct {
	Type   Type
	Offset int // byte offset in the PDU where decoding stopped
	Msg    string
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("bad %v PDU at byte %d: %s", e.Type, e.Offset, e.Msg)
}

func (e *DecodeError) Unwrap() error { return pcp.ErrIPC }

// decoder reads a PDU with wire's sticky-error Decoder, big-endian, with
// offsets counted from the start of the PDU, header included, and failures
// reported as *DecodeError naming the PDU type.
type decoder struct {
	wire.Decoder
}

// decodeError is the wire.Decoder hook that makes a *DecodeError; a plain
// function so that a decoder on the stack stays allocation-free.
func decodeError(tag int32, off int, msg string) error {
	return &DecodeError{Type: Type(tag), Offset: off, Msg: msg}
}

// newDecoder starts after the header of pdu, which must be a whole PDU
// whose header length equals len(pdu) and whose type is want.
func newDecoder(pdu []byte, want Type) (*decoder, Header) {
	d := &decoder{}
	h := d.reset(pdu, want)
	return d, h
}

// bodyDecoder starts at the body of buf without checking its header, for
// callers that have checked it.
func bodyDecoder(buf []byte, typ Type) decoder {
	return decoder{wire.Decoder{B: buf, Off: HeaderSize, Min: HeaderSize, NewError: decodeError, Tag: int32(typ)}}
}

// align4 rounds n up to a multiple of 4.
func align4(n int) int { return wire.Align4(n) }

func appendU32(dst []byte, v uint32) []byte { return binary.BigEndian.AppendUint32(dst, v) }
func appendI32(dst []byte, v int32) []byte  { return binary.BigEndian.AppendUint32(dst, uint32(v)) }
func appendU64(dst []byte, v uint64) []byte { return binary.BigEndian.AppendUint64(dst, v) }
func appendI64(dst []byte, v int64) []byte  { return binary.BigEndian.AppendUint64(dst, uint64(v)) }

// appendPadded appends b and zero bytes up to a multiple of 4.
func appendPadded(dst []byte, b []byte) []byte {
	dst = append(dst, b...)
	for i := len(b); i < align4(len(b)); i++ {
		dst = append(dst, 0)
	}
	return dst
}

// reset starts d on pdu with the checks newDecoder makes, for decoders on
// a hot path that keep their decoder on the stack rather than the heap.
func (d *decoder) reset(pdu []byte, want Type) Header {
	*d = bodyDecoder(pdu, want)
	h, err := ParseHeader(pdu)
	switch {
	case err != nil:
		d.Err = err
	case h.Type != want:
		d.Fail(0, fmt.Sprintf("type is %v", h.Type))
	case int(h.Len) != len(pdu):
		d.Fail(0, fmt.Sprintf("header length %d but %d bytes", h.Len, len(pdu)))
	}
	return h
}
