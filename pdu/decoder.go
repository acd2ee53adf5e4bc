package pdu

import (
	"encoding/binary"
	"fmt"

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

// decoder reads a PDU with a sticky error: once a read fails every later
// read returns zero values, so a decoder reads all its fields and checks
// err once. Offsets count from the start of the PDU, header included.
type decoder struct {
	b   []byte
	off int
	typ Type
	err error
}

// newDecoder starts after the header of pdu, which must be a whole PDU
// whose header length equals len(pdu) and whose type is want.
func newDecoder(pdu []byte, want Type) (*decoder, Header) {
	d := &decoder{b: pdu, off: HeaderSize, typ: want}
	h, err := ParseHeader(pdu)
	switch {
	case err != nil:
		d.err = err
	case h.Type != want:
		d.fail(0, fmt.Sprintf("type is %v", h.Type))
	case int(h.Len) != len(pdu):
		d.fail(0, fmt.Sprintf("header length %d but %d bytes", h.Len, len(pdu)))
	}
	return d, h
}

func (d *decoder) fail(off int, msg string) {
	if d.err == nil {
		d.err = &DecodeError{Type: d.typ, Offset: off, Msg: msg}
	}
}

func (d *decoder) remaining() int { return len(d.b) - d.off }

func (d *decoder) need(n int, what string) bool {
	if d.err != nil {
		return false
	}
	if n < 0 || n > d.remaining() {
		d.fail(d.off, fmt.Sprintf("%s needs %d bytes, %d left", what, n, d.remaining()))
		return false
	}
	return true
}

func (d *decoder) u32(what string) uint32 {
	if !d.need(4, what) {
		return 0
	}
	v := binary.BigEndian.Uint32(d.b[d.off:])
	d.off += 4
	return v
}

func (d *decoder) i32(what string) int32 { return int32(d.u32(what)) }

func (d *decoder) u64(what string) uint64 {
	if !d.need(8, what) {
		return 0
	}
	v := binary.BigEndian.Uint64(d.b[d.off:])
	d.off += 8
	return v
}

func (d *decoder) i64(what string) int64 { return int64(d.u64(what)) }

// bytes returns the next n bytes, aliasing the PDU.
func (d *decoder) bytes(n int, what string) []byte {
	if !d.need(n, what) {
		return nil
	}
	v := d.b[d.off : d.off+n : d.off+n]
	d.off += n
	return v
}

// padded returns the next n bytes and skips the padding that rounds them
// up to a multiple of 4, as PCP lays out strings in PDUs.
func (d *decoder) padded(n int, what string) []byte {
	v := d.bytes(n, what)
	if d.err == nil {
		if pad := align4(n) - n; pad > 0 {
			d.bytes(pad, what+" padding")
		}
	}
	return v
}

// count reads a 32-bit element count and checks that count elements of at
// least minSize bytes each could fit in what is left, so that a lying count
// can never make the caller allocate more than the PDU justifies.
func (d *decoder) count(minSize int, what string) int {
	at := d.off
	n := d.i32(what)
	if d.err != nil {
		return 0
	}
	if n < 0 {
		d.fail(at, fmt.Sprintf("%s is negative (%d)", what, n))
		return 0
	}
	if minSize > 0 && int64(n)*int64(minSize) > int64(d.remaining()) {
		d.fail(at, fmt.Sprintf("%s %d cannot fit in %d bytes", what, n, d.remaining()))
		return 0
	}
	return int(n)
}

// at moves to an absolute offset within the PDU, for layouts that point
// at their own parts.
func (d *decoder) at(off int, what string) {
	if d.err != nil {
		return
	}
	if off < HeaderSize || off > len(d.b) {
		d.fail(d.off, fmt.Sprintf("%s offset %d outside PDU of %d bytes", what, off, len(d.b)))
		return
	}
	d.off = off
}

// done reports the sticky error, or an error if bytes are left over.
func (d *decoder) done() error {
	if d.err == nil && d.off != len(d.b) {
		d.fail(d.off, fmt.Sprintf("%d bytes left over", len(d.b)-d.off))
	}
	return d.err
}

// align4 rounds n up to a multiple of 4.
func align4(n int) int { return (n + 3) &^ 3 }

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
	*d = decoder{b: pdu, off: HeaderSize, typ: want}
	h, err := ParseHeader(pdu)
	switch {
	case err != nil:
		d.err = err
	case h.Type != want:
		d.fail(0, fmt.Sprintf("type is %v", h.Type))
	case int(h.Len) != len(pdu):
		d.fail(0, fmt.Sprintf("header length %d but %d bytes", h.Len, len(pdu)))
	}
	return h
}
