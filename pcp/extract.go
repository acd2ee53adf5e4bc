package pcp

import (
	"bytes"
	"encoding/binary"
	"math"
)

// Numbers inside a ValueBlock's Data are in the host's byte order
// (binary.NativeEndian), because that is how libpcp holds a value block
// once a PDU has been decoded (the wire's big-endian numbers are swapped in
// place), and the PDU decoder in this module produces the same layout.
// binary.NativeEndian is named at each use rather than copied into a
// package variable: the copy, although empty, gives the package an
// initialisation function that every program linking it runs at start.

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
	// This wrapper is small enough to be inlined, so that the Atom lives
	// in the caller's frame and extract stores the one field it sets
	// straight into it. Go keeps a struct of Atom's size in memory, not in
	// registers, and an Atom returned from a call is stored field by field
	// and then copied with wide loads, which defeats the processor's
	// store-to-load forwarding. Such copies, one at each of three levels
	// of calls, were most of the time of a numeric extraction.
	var a Atom
	err := extract(&a, valfmt, v, in, out)
	return a, err
}

// extract is ExtractValue: it stores the value into a, which is zero,
// and on error leaves a as it is.
func extract(a *Atom, valfmt ValFmt, v *Value, in, out Type) error {
	if v == nil {
		return ErrConv
	}
	// The helpers return the converted number as the 64 bits of out's
	// representation, so that only here is a field of a set.
	var bits uint64
	var err error
	switch valfmt {
	case ValInSitu:
		bits, err = extractInSitu(v.LVal, in, out)
	case ValDPtr, ValSPtr:
		b := &v.Block
		// A block typed 0 is accepted for any input type: old agents and
		// archives left the block type unset.
		if b.Type != in && b.Type != 0 {
			return ErrConv
		}
		switch in {
		case TypeString:
			if out != TypeString {
				return ErrConv
			}
			s := b.Data
			if i := bytes.IndexByte(s, 0); i >= 0 {
				s = s[:i]
			}
			a.CP = string(s)
			return nil
		case TypeAggregate:
			if out != TypeAggregate {
				return ErrConv
			}
			a.VBP = &ValueBlock{Type: b.Type, Data: bytes.Clone(b.Data)}
			return nil
		}
		bits, err = extractBlock(b.Data, in, out)
	default:
		return ErrConv
	}
	if err != nil {
		return err
	}
	// A conversion succeeds only for these output types.
	switch out {
	case Type32:
		a.L = int32(bits)
	case TypeU32:
		a.UL = uint32(bits)
	case Type64:
		a.LL = int64(bits)
	case TypeU64:
		a.ULL = bits
	case TypeFloat:
		a.F = math.Float32frombits(uint32(bits))
	case TypeDouble:
		a.D = math.Float64frombits(bits)
	}
	return nil
}

// The functions below return a number converted to out as the bits of
// its representation in the Atom field for out: the value itself for the
// integer types (32-bit ones in the low half) and the IEEE 754 bits for
// float and double.

func extractInSitu(lval int32, in, out Type) (uint64, error) {
	switch in {
	case Type32, TypeUnknown:
		return convertSigned(int64(lval), out)
	case TypeU32:
		return convertUnsigned(uint64(uint32(lval)), out)
	case TypeFloat:
		return convertFloat32(math.Float32frombits(uint32(lval)), out)
	}
	return 0, ErrConv
}

// extractBlock converts the number in a block's data, of type in; the
// block's type has been checked.
func extractBlock(data []byte, in, out Type) (uint64, error) {
	switch in {
	case Type64:
		if len(data) != 8 {
			return 0, ErrConv
		}
		return convertSigned(int64(binary.NativeEndian.Uint64(data)), out)
	case TypeU64:
		if len(data) != 8 {
			return 0, ErrConv
		}
		return convertUnsigned(binary.NativeEndian.Uint64(data), out)
	case TypeFloat:
		if len(data) != 4 {
			return 0, ErrConv
		}
		return convertFloat32(math.Float32frombits(binary.NativeEndian.Uint32(data)), out)
	case TypeDouble:
		if len(data) != 8 {
			return 0, ErrConv
		}
		return convertFloat64(math.Float64frombits(binary.NativeEndian.Uint64(data)), out)
	}
	return 0, ErrConv
}

// convertSigned converts a 32- or 64-bit signed source. There is no lower
// bound check towards Type32: libpcp lets a large negative 64-bit value
// wrap, and so do we.
func convertSigned(x int64, out Type) (uint64, error) {
	switch out {
	case Type32:
		if x > math.MaxInt32 {
			return 0, ErrTrunc
		}
		return uint64(uint32(int32(x))), nil
	case TypeU32:
		if x > math.MaxUint32 {
			return 0, ErrTrunc
		}
		if x < 0 {
			return 0, ErrSign
		}
		return uint64(x), nil
	case Type64:
		return uint64(x), nil
	case TypeU64:
		if x < 0 {
			return 0, ErrSign
		}
		return uint64(x), nil
	case TypeFloat:
		return uint64(math.Float32bits(float32(x))), nil
	case TypeDouble:
		return math.Float64bits(float64(x)), nil
	}
	return 0, ErrConv
}

func convertUnsigned(x uint64, out Type) (uint64, error) {
	switch out {
	case Type32:
		if x > math.MaxInt32 {
			return 0, ErrTrunc
		}
		return x, nil
	case TypeU32:
		if x > math.MaxUint32 {
			return 0, ErrTrunc
		}
		return x, nil
	case Type64:
		if x > math.MaxInt64 {
			return 0, ErrTrunc
		}
		return x, nil
	case TypeU64:
		return x, nil
	case TypeFloat:
		return uint64(math.Float32bits(float32(x))), nil
	case TypeDouble:
		return math.Float64bits(float64(x)), nil
	}
	return 0, ErrConv
}

// convertFloat32 widens to double, which is exact: libpcp's float limits
// (2^31 and 2^32) and its double limits (2^31-1 and 2^32-1) select the same
// floats, since no float lies between them. Float to float must not pass
// through double, which would quieten a signalling NaN.
func convertFloat32(f float32, out Type) (uint64, error) {
	if out == TypeFloat {
		return uint64(math.Float32bits(f)), nil
	}
	return convertFloat64(float64(f), out)
}

func convertFloat64(d float64, out Type) (uint64, error) {
	switch out {
	case Type32:
		if math.Abs(d) >= math.MaxInt32 {
			return 0, ErrTrunc
		}
		return uint64(uint32(CastInt32(d))), nil
	case TypeU32:
		if d >= math.MaxUint32 {
			return 0, ErrTrunc
		}
		if d < 0 {
			return 0, ErrSign
		}
		return uint64(CastUint32(d)), nil
	case Type64:
		if d >= 0x1p63 {
			return 0, ErrTrunc
		}
		return uint64(CastInt64(d)), nil
	case TypeU64:
		if d >= 0x1p64 {
			return 0, ErrTrunc
		}
		if d < 0 {
			return 0, ErrSign
		}
		return CastUint64(d), nil
	case TypeFloat:
		return uint64(math.Float32bits(float32(d))), nil
	case TypeDouble:
		return math.Float64bits(d), nil
	}
	return 0, ErrConv
}
