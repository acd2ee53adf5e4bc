package fetchgroup

import (
	"math"
	"strconv"

	"github.com/gopcp/gopcp/pcp"
)

// Value is the set of Go types a handle can deliver, one for each PCP type
// a fetchgroup converts to.
type Value interface {
	int32 | uint32 | int64 | uint64 | float32 | float64 | string
}

// typeOf is the PCP type that holds T.
func typeOf[T Value]() pcp.Type {
	var v T
	switch any(v).(type) {
	case int32:
		return pcp.Type32
	case uint32:
		return pcp.TypeU32
	case int64:
		return pcp.Type64
	case uint64:
		return pcp.TypeU64
	case float32:
		return pcp.TypeFloat
	case float64:
		return pcp.TypeDouble
	}
	return pcp.TypeString
}

// fromAtom reads the field of a that holds a T.
func fromAtom[T Value](a *pcp.Atom) T {
	var v T
	switch p := any(&v).(type) {
	case *int32:
		*p = a.L
	case *uint32:
		*p = a.UL
	case *int64:
		*p = a.LL
	case *uint64:
		*p = a.ULL
	case *float32:
		*p = a.F
	case *float64:
		*p = a.D
	case *string:
		*p = a.CP
	}
	return v
}

// sentinel is the "no value" Atom for type t: NaN for floating types,
// every bit set for integers, no string. The NaN is the one libpcp's 0.0/0.0
// makes on amd64, sign bit set, which C's printf shows as "-nan".
func sentinel(t pcp.Type) pcp.Atom {
	switch t {
	case pcp.TypeFloat:
		return pcp.Atom{F: math.Float32frombits(0xffc00000)}
	case pcp.TypeDouble:
		return pcp.Atom{D: math.Float64frombits(0xfff8000000000000)}
	case pcp.TypeString:
		return pcp.Atom{}
	}
	return pcp.Atom{L: -1, UL: math.MaxUint32, LL: -1, ULL: math.MaxUint64}
}

// convertible reports whether a fetchgroup converts values of type t: the
// numbers and strings, not aggregates or events.
func convertible(t pcp.Type) bool {
	switch t {
	case pcp.Type32, pcp.TypeU32, pcp.Type64, pcp.TypeU64, pcp.TypeFloat, pcp.TypeDouble, pcp.TypeString:
		return true
	}
	return false
}

// formatE formats v as C's printf("%.*e") does, "inf" and "nan" included.
func formatE(v float64, prec int) string {
	switch {
	case math.IsNaN(v):
		if math.Signbit(v) {
			return "-nan"
		}
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'e', prec, 64)
}

// fromDouble stores a number computed as a double (a rate or a rescaled
// value) in an Atom of type out, refusing what does not fit as
// pmExtractValue would.
func fromDouble(v float64, out pcp.Type) (pcp.Atom, error) {
	var a pcp.Atom
	switch out {
	case pcp.Type32:
		if v > math.MaxInt32 || v < math.MinInt32 {
			return a, pcp.ErrTrunc
		}
		a.L = int32(v)
	case pcp.TypeU32:
		switch {
		case v > math.MaxUint32:
			return a, pcp.ErrTrunc
		case v < 0:
			return a, pcp.ErrSign
		}
		a.UL = uint32(v)
	case pcp.Type64:
		// C compares with (double)LLONG_MAX, which rounds up to 2^63.
		if v > math.MaxInt64 || v < math.MinInt64 {
			return a, pcp.ErrTrunc
		}
		a.LL = int64(v)
	case pcp.TypeU64:
		switch {
		case v > math.MaxUint64:
			return a, pcp.ErrTrunc
		case v < 0:
			return a, pcp.ErrSign
		}
		a.ULL = uint64(v)
	case pcp.TypeFloat:
		if math.Abs(v) > math.MaxFloat32 {
			return a, pcp.ErrTrunc
		}
		a.F = float32(v)
	case pcp.TypeDouble:
		a.D = v
	case pcp.TypeString:
		a.CP = formatE(v, 17)
	default:
		return a, pcp.ErrType
	}
	return a, nil
}
