package pcp

import (
	"bytes"
	"encoding/binary"
	"math"
)

// blockOrder is the byte order of numbers inside a ValueBlock's Data. It is
// the host's, because that is how libpcp holds a value block once a PDU has
// been decoded (the wire's big-endian numbers are swapped in place), and the
// PDU decoder in this module produces the same layout.
var blockOrder = binary.NativeEndian

// ExtractValue converts one value of a ValueSet, whose values are held as
// valfmt says and have type in, to type out, as pmExtractValue does.
//
// Numeric types convert to one another; a value that does not fit gives
// ErrTrunc, a negative value asked for as unsigned gives ErrSign, and any
// other pairing gives ErrConv. Floating point to integer truncates towards
// zero. A string comes back in CP (up to its first NUL byte, as C would see
// it) and an aggregate in VBP as a copy of the block; event records cannot
// be extracted. In-situ values can only be 32-bit integers or (an old
// encoding) a float; a value block must have the length of its type and a
// block type of either in or 0, else ErrConv. Numbers in a block's Data are
// in host byte order, as libpcp holds them once decoded.
//
// On error the returned Atom is zero, as libpcp zeroes its output first.
// A nil v gives ErrConv where libpcp would crash. Numeric conversions do
// not allocate.
func ExtractValue(valfmt ValFmt, v *Value, in Type, out Type) (Atom, error) {
	if v == nil {
		return Atom{}, ErrConv
	}
	switch valfmt {
	case ValInSitu:
		return extractInSitu(v.LVal, in, out)
	case ValDPtr, ValSPtr:
		return extractBlock(&v.Block, in, out)
	}
	return Atom{}, ErrConv
}

func extractInSitu(lval int32, in, out Type) (Atom, error) {
	switch in {
	case Type32, TypeUnknown:
		return convertSigned(int64(lval), out)
	case TypeU32:
		return convertUnsigned(uint64(uint32(lval)), out)
	case TypeFloat:
		return convertFloat32(math.Float32frombits(uint32(lval)), out)
	}
	return Atom{}, ErrConv
}

func extractBlock(b *ValueBlock, in, out Type) (Atom, error) {
	// A block typed 0 is accepted for any input type: old agents and
	// archives left the block type unset.
	if b.Type != in && b.Type != 0 {
		return Atom{}, ErrConv
	}
	switch in {
	case Type64:
		if len(b.Data) != 8 {
			return Atom{}, ErrConv
		}
		return convertSigned(int64(blockOrder.Uint64(b.Data)), out)
	case TypeU64:
		if len(b.Data) != 8 {
			return Atom{}, ErrConv
		}
		return convertUnsigned(blockOrder.Uint64(b.Data), out)
	case TypeFloat:
		if len(b.Data) != 4 {
			return Atom{}, ErrConv
		}
		return convertFloat32(math.Float32frombits(blockOrder.Uint32(b.Data)), out)
	case TypeDouble:
		if len(b.Data) != 8 {
			return Atom{}, ErrConv
		}
		return convertFloat64(math.Float64frombits(blockOrder.Uint64(b.Data)), out)
	case TypeString:
		if out != TypeString {
			return Atom{}, ErrConv
		}
		s := b.Data
		if i := bytes.IndexByte(s, 0); i >= 0 {
			s = s[:i]
		}
		return Atom{CP: string(s)}, nil
	case TypeAggregate:
		if out != TypeAggregate {
			return Atom{}, ErrConv
		}
		return Atom{VBP: &ValueBlock{Type: b.Type, Data: bytes.Clone(b.Data)}}, nil
	}
	return Atom{}, ErrConv
}

// convertSigned converts a 32- or 64-bit signed source. There is no lower
// bound check towards Type32: libpcp lets a large negative 64-bit value
// wrap, and so do we.
func convertSigned(x int64, out Type) (Atom, error) {
	switch out {
	case Type32:
		if x > math.MaxInt32 {
			return Atom{}, ErrTrunc
		}
		return Atom{L: int32(x)}, nil
	case TypeU32:
		if x > math.MaxUint32 {
			return Atom{}, ErrTrunc
		}
		if x < 0 {
			return Atom{}, ErrSign
		}
		return Atom{UL: uint32(x)}, nil
	case Type64:
		return Atom{LL: x}, nil
	case TypeU64:
		if x < 0 {
			return Atom{}, ErrSign
		}
		return Atom{ULL: uint64(x)}, nil
	case TypeFloat:
		return Atom{F: float32(x)}, nil
	case TypeDouble:
		return Atom{D: float64(x)}, nil
	}
	return Atom{}, ErrConv
}

func convertUnsigned(x uint64, out Type) (Atom, error) {
	switch out {
	case Type32:
		if x > math.MaxInt32 {
			return Atom{}, ErrTrunc
		}
		return Atom{L: int32(x)}, nil
	case TypeU32:
		if x > math.MaxUint32 {
			return Atom{}, ErrTrunc
		}
		return Atom{UL: uint32(x)}, nil
	case Type64:
		if x > math.MaxInt64 {
			return Atom{}, ErrTrunc
		}
		return Atom{LL: int64(x)}, nil
	case TypeU64:
		return Atom{ULL: x}, nil
	case TypeFloat:
		return Atom{F: float32(x)}, nil
	case TypeDouble:
		return Atom{D: float64(x)}, nil
	}
	return Atom{}, ErrConv
}

// convertFloat32 widens to double, which is exact: libpcp's float limits
// (2^31 and 2^32) and its double limits (2^31-1 and 2^32-1) select the same
// floats, since no float lies between them. Float to float must not pass
// through double, which would quieten a signalling NaN.
func convertFloat32(f float32, out Type) (Atom, error) {
	if out == TypeFloat {
		return Atom{F: f}, nil
	}
	return convertFloat64(float64(f), out)
}

func convertFloat64(d float64, out Type) (Atom, error) {
	switch out {
	case Type32:
		if math.Abs(d) >= math.MaxInt32 {
			return Atom{}, ErrTrunc
		}
		return Atom{L: x86Int32(d)}, nil
	case TypeU32:
		if d >= math.MaxUint32 {
			return Atom{}, ErrTrunc
		}
		if d < 0 {
			return Atom{}, ErrSign
		}
		return Atom{UL: x86Uint32(d)}, nil
	case Type64:
		if d >= 0x1p63 {
			return Atom{}, ErrTrunc
		}
		return Atom{LL: x86Int64(d)}, nil
	case TypeU64:
		if d >= 0x1p64 {
			return Atom{}, ErrTrunc
		}
		if d < 0 {
			return Atom{}, ErrSign
		}
		return Atom{ULL: x86Uint64(d)}, nil
	case TypeFloat:
		return Atom{F: float32(d)}, nil
	case TypeDouble:
		return Atom{D: d}, nil
	}
	return Atom{}, ErrConv
}

// The float-to-integer truncations below are total: where C's cast is
// undefined (NaN, or out of range, which libpcp's checks let through only
// for NaN and for large negative values towards 64 bits) they give what
// libpcp gives on amd64, whose conversion instructions answer the
// "integer indefinite" value, the lowest integer of the width.

func x86Int64(d float64) int64 {
	if d >= -0x1p63 && d < 0x1p63 {
		return int64(d)
	}
	return math.MinInt64
}

func x86Int32(d float64) int32 {
	if d >= -0x1p31 && d < 0x1p31 {
		return int32(d)
	}
	return math.MinInt32
}

// x86Uint32 keeps the low half of a 64-bit conversion, which is how
// compilers for amd64 convert to a 32-bit unsigned integer.
func x86Uint32(d float64) uint32 { return uint32(x86Int64(d)) }

// x86Uint64 converts values from 2^63 up by offsetting them into the
// signed range, as amd64 compilers do; anything else (NaN included) takes
// the signed conversion.
func x86Uint64(d float64) uint64 {
	if d >= 0x1p63 {
		return uint64(x86Int64(d-0x1p63)) ^ 1<<63
	}
	return uint64(x86Int64(d))
}
