package pcp

import (
	"math/big"
	"strconv"
)

// NumberStr formats v in the seven characters pmNumberStr uses for pmval's
// fixed-width columns: "ddd.dd" and a scale letter (a space, K, M, G or T
// for powers of 1000), with fewer digits before the point for negative
// values, " inf?  " and "-inf?  " beyond the largest scale, and "  0.00 "
// for values that round to zero and for NaN.
func NumberStr(v float64) string {
	if v >= 0 {
		switch {
		case v >= 999995000000000:
			return " inf?  "
		case v >= 999995000000:
			return fixed62(extendedQuo(v, 1e12), 'T')
		case v >= 999995000:
			return fixed62(extendedQuo(v, 1e9), 'G')
		case v >= 999995:
			return fixed62(extendedQuo(v, 1e6), 'M')
		case v >= 999.995:
			return fixed62(v/1000, 'K')
		case v >= 0.005:
			return fixed62(v, ' ')
		}
		return "  0.00 "
	}
	// NaN fails every comparison and lands on zero.
	switch {
	case v <= -99995000000000:
		return "-inf?  "
	case v <= -99995000000:
		return fixed62(extendedQuo(v, 1e12), 'T')
	case v <= -99995000:
		return fixed62(extendedQuo(v, 1e9), 'G')
	case v <= -99995:
		return fixed62(extendedQuo(v, 1e6), 'M')
	case v <= -99.995:
		return fixed62(v/1000, 'K')
	case v <= -0.005:
		return fixed62(v, ' ')
	}
	return "  0.00 "
}

// fixed62 is C's "%6.2f" followed by suffix, cut to the seven characters
// pmNumberStr's buffer holds.
func fixed62(x float64, suffix byte) string {
	var buf [32]byte
	b := strconv.AppendFloat(buf[:0], x, 'f', 2, 64)
	out := make([]byte, 0, 8)
	for n := len(b); n < 6; n++ {
		out = append(out, ' ')
	}
	out = append(out, b...)
	out = append(out, suffix)
	return string(out[:min(len(out), 7)])
}

// extendedQuo divides as libpcp does for its three largest scales: in
// x87 extended precision (a 64-bit significand), then rounded to double.
// The double rounding can differ from a plain float64 division by one ulp.
func extendedQuo(x, y float64) float64 {
	var q, d big.Float
	q.SetPrec(64).SetFloat64(x)
	d.SetPrec(64).SetFloat64(y)
	q.Quo(&q, &d)
	f, _ := q.Float64()
	return f
}
