package pcp

import "math"

// C's conversions of a double to an integer, as libpcp compiled for
// amd64 performs them. They are total: where C leaves the cast undefined
// (NaN, or a value out of the type's range, which libpcp lets through in
// value extraction and in interpolation of counters near their wrap)
// they give what amd64's conversion instructions answer, the "integer
// indefinite" value (the lowest integer of the width), so that a value
// computed out of range reads as PCP's does.

// CastInt32 is C's (int32_t) of a double: out of range gives the lowest
// int32.
func CastInt32(d float64) int32 {
	if d >= -0x1p31 && d < 0x1p31 {
		return int32(d)
	}
	return math.MinInt32
}

// CastInt64 is C's (int64_t) of a double: out of range gives the lowest
// int64.
func CastInt64(d float64) int64 {
	if d >= -0x1p63 && d < 0x1p63 {
		return int64(d)
	}
	return math.MinInt64
}

// CastUint32 is C's (uint32_t) of a double: amd64 compilers convert to
// 64 bits signed and keep the low half.
func CastUint32(d float64) uint32 { return uint32(CastInt64(d)) }

// CastUint64 is C's (uint64_t) of a double: amd64 compilers offset
// values from 2^63 up into the signed range and convert everything else
// (NaN included) as signed.
func CastUint64(d float64) uint64 {
	if d >= 0x1p63 {
		return uint64(CastInt64(d-0x1p63)) ^ 1<<63
	}
	return uint64(CastInt64(d))
}
