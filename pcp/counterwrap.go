package pcp

// Counter wrap: a counter that went down between two values is taken, when
// the user asks for it (PCP_COUNTER_WRAP, read by the tools), to have
// passed its type's maximum and started again from zero. PCP applies the
// rule in two forms, both here: to a difference of two values converted
// to double (rates in pmval and fetchgroups) and to the integers
// themselves (interpolation of archive values in libpcp).

// CounterDelta is the change of a counter of type t from prev to cur, as
// doubles, the way PCP's rate conversions take it: when the change is
// negative and wrap is set, the type's range (2^32 for 32-bit types,
// 2^64 for 64-bit ones) is added; a negative change without wrap is
// returned as it is with ok false (pmval prints it, a fetchgroup
// answers PM_ERR_VALUE). Other types' changes are never adjusted.
func CounterDelta(t Type, cur, prev float64, wrap bool) (delta float64, ok bool) {
	delta = cur - prev
	if delta >= 0 {
		return delta, true
	}
	if !wrap {
		return delta, false
	}
	switch t {
	case Type32, TypeU32:
		delta += 1 << 32
	case Type64, TypeU64:
		delta += 1 << 64
	}
	return delta, true
}

// WrapDistance32 is how far a 32-bit counter went from prev to next
// when it wrapped: what is left to the maximum, plus one, plus next
// (libpcp's UINT_MAX - prev + 1 + next), in the type's modular
// arithmetic.
func WrapDistance32(prev, next uint32) uint32 { return next - prev }

// WrapDistance64 is WrapDistance32 for 64-bit counters
// (ULONGLONG_MAX - prev + 1 + next).
func WrapDistance64(prev, next uint64) uint64 { return next - prev }
