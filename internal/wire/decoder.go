package wire

import (
	"encoding/binary"
	"fmt"
)

// Error is the error a Decoder records when it has no NewError hook.
type Error struct {
	Offset int // byte offset in the input where decoding stopped
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("at byte %d: %s", e.Offset, e.Msg) }

// Decoder reads fields from B starting at Off. Its fields are exported so
// that callers on a hot path can keep a Decoder on the stack and look at
// the input directly where a layout needs it.
type Decoder struct {
	B   []byte
	Off int
	Err error // the first failure; sticky

	// Little selects little-endian fields; the zero value reads big-endian
	// as PDUs are laid out.
	Little bool

	// Min is the lowest offset At accepts (a PDU's header length, say).
	Min int

	// NewError, if set, builds the error for a failure at off, given Tag,
	// so that a caller can return its own error type; it must be a plain
	// function, not a closure, for a Decoder to stay allocation-free.
	NewError func(tag int32, off int, msg string) error
	Tag      int32
}

// New returns a decoder over b from offset 0.
func New(b []byte, little bool) *Decoder { return &Decoder{B: b, Little: little} }

// Fail records a failure at off unless one is already recorded.
func (d *Decoder) Fail(off int, msg string) {
	if d.Err != nil {
		return
	}
	if d.NewError != nil {
		d.Err = d.NewError(d.Tag, off, msg)
		return
	}
	d.Err = &Error{Offset: off, Msg: msg}
}

// Remaining is the number of bytes after Off.
func (d *Decoder) Remaining() int { return len(d.B) - d.Off }

// Need reports whether n more bytes are there, failing if not.
func (d *Decoder) Need(n int, what string) bool {
	if d.Err != nil {
		return false
	}
	if n < 0 || n > d.Remaining() {
		d.Fail(d.Off, fmt.Sprintf("%s needs %d bytes, %d left", what, n, d.Remaining()))
		return false
	}
	return true
}

// U16 reads a 16-bit unsigned field.
func (d *Decoder) U16(what string) uint16 {
	if !d.Need(2, what) {
		return 0
	}
	var v uint16
	if d.Little {
		v = binary.LittleEndian.Uint16(d.B[d.Off:])
	} else {
		v = binary.BigEndian.Uint16(d.B[d.Off:])
	}
	d.Off += 2
	return v
}

// U32 reads a 32-bit unsigned field.
func (d *Decoder) U32(what string) uint32 {
	if !d.Need(4, what) {
		return 0
	}
	var v uint32
	if d.Little {
		v = binary.LittleEndian.Uint32(d.B[d.Off:])
	} else {
		v = binary.BigEndian.Uint32(d.B[d.Off:])
	}
	d.Off += 4
	return v
}

// I32 reads a 32-bit signed field.
func (d *Decoder) I32(what string) int32 { return int32(d.U32(what)) }

// U64 reads a 64-bit unsigned field.
func (d *Decoder) U64(what string) uint64 {
	if !d.Need(8, what) {
		return 0
	}
	var v uint64
	if d.Little {
		v = binary.LittleEndian.Uint64(d.B[d.Off:])
	} else {
		v = binary.BigEndian.Uint64(d.B[d.Off:])
	}
	d.Off += 8
	return v
}

// I64 reads a 64-bit signed field.
func (d *Decoder) I64(what string) int64 { return int64(d.U64(what)) }

// Bytes returns the next n bytes, aliasing the input.
func (d *Decoder) Bytes(n int, what string) []byte {
	if !d.Need(n, what) {
		return nil
	}
	v := d.B[d.Off : d.Off+n : d.Off+n]
	d.Off += n
	return v
}

// Skip moves past n bytes.
func (d *Decoder) Skip(n int, what string) { d.Bytes(n, what) }

// Padded returns the next n bytes and skips the padding that rounds them
// up to a multiple of 4, as PCP lays out strings in PDUs.
func (d *Decoder) Padded(n int, what string) []byte {
	v := d.Bytes(n, what)
	if d.Err == nil {
		if pad := Align4(n) - n; pad > 0 {
			d.Bytes(pad, what+" padding")
		}
	}
	return v
}

// CString returns the bytes of a NUL-terminated string in a field of n
// bytes and moves past the field; a field with no NUL is an error, as a
// reader that went looking for the NUL would run off its end.
func (d *Decoder) CString(n int, what string) string {
	at := d.Off
	b := d.Bytes(n, what)
	if d.Err != nil {
		return ""
	}
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	d.Fail(at, fmt.Sprintf("%s has no terminating NUL in %d bytes", what, n))
	return ""
}

// Count reads a 32-bit element count and checks that count elements of at
// least minSize bytes each could fit in what is left, so that a lying count
// can never make the caller allocate more than the input justifies.
func (d *Decoder) Count(minSize int, what string) int {
	at := d.Off
	n := d.I32(what)
	if d.Err != nil {
		return 0
	}
	if n < 0 {
		d.Fail(at, fmt.Sprintf("%s is negative (%d)", what, n))
		return 0
	}
	if !d.Room(at, n, minSize, what) {
		return 0
	}
	return int(n)
}

// Room checks that n elements of at least minSize bytes each fit in what
// is left, failing at at (where the count was read) if not: Count's check
// for the counts a layout allows to be negative or reads apart.
func (d *Decoder) Room(at int, n int32, minSize int, what string) bool {
	if d.Err != nil {
		return false
	}
	if n > 0 && minSize > 0 && int64(n)*int64(minSize) > int64(d.Remaining()) {
		d.Fail(at, fmt.Sprintf("%s %d cannot fit in %d bytes", what, n, d.Remaining()))
		return false
	}
	return true
}

// Fits checks that n elements of size bytes each fit between off and the
// end of the input, for layouts whose counts and offsets live apart from
// the elements they describe.
func (d *Decoder) Fits(off int64, n int64, size int, what string) bool {
	if d.Err != nil {
		return false
	}
	// Divide rather than multiply: n comes from the input and n*size
	// could wrap.
	if off < int64(d.Min) || off > int64(len(d.B)) || n < 0 || (size > 0 && n > (int64(len(d.B))-off)/int64(size)) {
		d.Fail(d.Off, fmt.Sprintf("%s: %d of %d bytes at offset %d outside %d bytes", what, n, size, off, len(d.B)))
		return false
	}
	return true
}

// At moves to an absolute offset, for layouts that point at their own
// parts.
func (d *Decoder) At(off int, what string) {
	if d.Err != nil {
		return
	}
	if off < d.Min || off > len(d.B) {
		d.Fail(d.Off, fmt.Sprintf("%s offset %d outside input of %d bytes", what, off, len(d.B)))
		return
	}
	d.Off = off
}

// Done reports the sticky error, or an error if bytes are left over.
func (d *Decoder) Done() error {
	if d.Err == nil && d.Off != len(d.B) {
		d.Fail(d.Off, fmt.Sprintf("%d bytes left over", len(d.B)-d.Off))
	}
	return d.Err
}

// Align4 rounds n up to a multiple of 4.
func Align4(n int) int { return (n + 3) &^ 3 }
