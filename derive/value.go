package derive

import (
	"math"

	"github.com/gopcp/gopcp/pcp"
)

// Values inside an expression are held as the 64 bits of C's
// pmAtomValue union, so that reading a value as another type gives what
// libpcp gets: 32-bit types and floats in the low half, the rest in all
// 64 bits.

func i32(b uint64) int32     { return int32(uint32(b)) }
func u32(b uint64) uint32    { return uint32(b) }
func f32(b uint64) float32   { return math.Float32frombits(uint32(b)) }
func f64(b uint64) float64   { return math.Float64frombits(b) }
func ofI32(v int32) uint64   { return uint64(uint32(v)) }
func ofF32(v float32) uint64 { return uint64(math.Float32bits(v)) }
func ofF64(v float64) uint64 { return math.Float64bits(v) }

// toF64 converts a value of type t to a double as C does.
func toF64(b uint64, t pcp.Type) float64 {
	switch t {
	case pcp.Type32:
		return float64(i32(b))
	case pcp.TypeU32:
		return float64(u32(b))
	case pcp.Type64:
		return float64(int64(b))
	case pcp.TypeU64:
		return float64(b)
	case pcp.TypeFloat:
		return float64(f32(b))
	}
	return f64(b)
}

func toF32(b uint64, t pcp.Type) float32 {
	switch t {
	case pcp.Type32:
		return float32(i32(b))
	case pcp.TypeU32:
		return float32(u32(b))
	case pcp.Type64:
		return float32(int64(b))
	case pcp.TypeU64:
		return float32(b)
	case pcp.TypeDouble:
		return float32(f64(b))
	}
	return f32(b)
}

// to64 widens a value to 64 bits for 64-bit arithmetic; 64-bit and
// wider types are used as they are, as in libpcp.
func to64(b uint64, t pcp.Type) uint64 {
	switch t {
	case pcp.Type32:
		return uint64(int64(i32(b)))
	case pcp.TypeU32:
		return uint64(u32(b))
	}
	return b
}

func isZero(b uint64, t pcp.Type) bool {
	switch t {
	case pcp.Type32, pcp.TypeU32:
		return u32(b) == 0
	case pcp.Type64, pcp.TypeU64:
		return b == 0
	case pcp.TypeFloat:
		return f32(b) == 0
	}
	return f64(b) == 0
}

// ofBool stores a truth value in type t.
func ofBool(v bool, t pcp.Type) uint64 {
	n := uint64(0)
	if v {
		n = 1
	}
	switch t {
	case pcp.TypeFloat:
		return ofF32(float32(n))
	case pcp.TypeDouble:
		return ofF64(float64(n))
	}
	return n
}

// binOp is libpcp's bin_op: both operands are converted to the result
// type (and, for DOUBLE, scaled), then combined. Relational and boolean
// results are 0 or 1 in the result type.
func binOp(t pcp.Type, op Op, a uint64, lt pcp.Type, lmul, ldiv float64, b uint64, rt pcp.Type, rmul, rdiv float64) uint64 {
	switch t {
	case pcp.Type32:
		l, r := i32(a), i32(b)
		switch op {
		case OpPlus:
			return ofI32(l + r)
		case OpMinus:
			return ofI32(l - r)
		case OpStar:
			return ofI32(l * r)
		}
		return ofBool(compare(op, cmpInt(int64(l), int64(r)), l != 0, r != 0), t)
	case pcp.TypeU32:
		l, r := u32(a), u32(b)
		switch op {
		case OpPlus:
			return uint64(l + r)
		case OpMinus:
			return uint64(l - r)
		case OpStar:
			return uint64(l * r)
		}
		return ofBool(compare(op, cmpUint(uint64(l), uint64(r)), l != 0, r != 0), t)
	case pcp.Type64:
		l, r := int64(to64(a, lt)), int64(to64(b, rt))
		switch op {
		case OpPlus:
			return uint64(l + r)
		case OpMinus:
			return uint64(l - r)
		case OpStar:
			return uint64(l * r)
		}
		return ofBool(compare(op, cmpInt(l, r), l != 0, r != 0), t)
	case pcp.TypeU64:
		l, r := to64(a, lt), to64(b, rt)
		switch op {
		case OpPlus:
			return l + r
		case OpMinus:
			return l - r
		case OpStar:
			return l * r
		}
		return ofBool(compare(op, cmpUint(l, r), l != 0, r != 0), t)
	case pcp.TypeFloat:
		l, r := toF32(a, lt), toF32(b, rt)
		switch op {
		case OpPlus:
			return ofF32(l + r)
		case OpMinus:
			return ofF32(l - r)
		case OpStar:
			return ofF32(l * r)
		}
		return ofBool(compare(op, cmpFloat(float64(l), float64(r)), l != 0, r != 0), t)
	}
	l := toF64(a, lt) / ldiv * lmul
	r := toF64(b, rt) / rdiv * rmul
	switch op {
	case OpPlus:
		return ofF64(l + r)
	case OpMinus:
		return ofF64(l - r)
	case OpStar:
		return ofF64(l * r)
	case OpSlash:
		if l == 0 {
			return ofF64(0)
		}
		return ofF64(l / r)
	}
	return ofBool(compare(op, cmpFloat(l, r), l != 0, r != 0), t)
}

// ordering of two operands: -1, 0, 1, or 2 when unordered (NaN)
func cmpInt(l, r int64) int {
	switch {
	case l < r:
		return -1
	case l > r:
		return 1
	}
	return 0
}

func cmpUint(l, r uint64) int {
	switch {
	case l < r:
		return -1
	case l > r:
		return 1
	}
	return 0
}

func cmpFloat(l, r float64) int {
	switch {
	case l < r:
		return -1
	case l > r:
		return 1
	case l == r:
		return 0
	}
	return 2
}

func compare(op Op, c int, lTrue, rTrue bool) bool {
	switch op {
	case OpLT:
		return c == -1
	case OpLEQ:
		return c == -1 || c == 0
	case OpEQ:
		return c == 0
	case OpGEQ:
		return c == 1 || c == 0
	case OpGT:
		return c == 1
	case OpNEQ:
		return c != 0
	case OpAnd:
		return lTrue && rTrue
	case OpOr:
		return lTrue || rTrue
	}
	return false
}

// truncU32 is C's conversion of a relational result of type t to
// unsigned 32 bits.
func truncU32(b uint64, t pcp.Type) uint64 {
	switch t {
	case pcp.TypeFloat:
		return uint64(uint32(f32(b)))
	case pcp.TypeDouble:
		return uint64(uint32(f64(b)))
	}
	return uint64(uint32(b))
}
