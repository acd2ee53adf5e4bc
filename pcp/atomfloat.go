package pcp

// Float64 is the value of a, an Atom of type t, as a double: C's
// conversion, as pmExtractValue gives a number asked for as
// PM_TYPE_DOUBLE (64-bit integers round to the nearest double). The
// types that are not numbers (strings, aggregates, events, unknown)
// give ErrConv.
func Float64(t Type, a Atom) (float64, error) {
	switch t {
	case Type32:
		return float64(a.L), nil
	case TypeU32:
		return float64(a.UL), nil
	case Type64:
		return float64(a.LL), nil
	case TypeU64:
		return float64(a.ULL), nil
	case TypeFloat:
		return float64(a.F), nil
	case TypeDouble:
		return a.D, nil
	}
	return 0, ErrConv
}
