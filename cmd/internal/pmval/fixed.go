package pmval

import (
	"math"
	"strconv"
)

// pow10 are the powers of ten appendFixed scales by, all exact.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9}

// appendFixed appends x as printf's %.<prec>f (and strconv's 'f') does:
// the decimal nearest x's exact binary value, ties to even. Every rate
// pmval prints goes through it; strconv's general path was a tenth of a
// long replay's CPU.
//
// With x scaled by 10^prec into p (rounded) and the rounding's error e
// (exact, by a fused multiply-add), the value is floor(p) + r + e for
// r = p - floor(p), exact. While p < 2^40, |e| is at most half an ulp
// of p and r - 1/2 is 0 or at least an ulp away, so r alone decides
// unless it is exactly 1/2, where e's sign does, and e = 0 is a tie.
// Larger values, more digits and non-finite ones go to strconv.
func appendFixed(b []byte, x float64, prec int) []byte {
	ax := math.Abs(x)
	if prec < 0 || prec >= len(pow10) || !(ax*pow10[prec] < 1<<40) {
		return strconv.AppendFloat(b, x, 'f', prec, 64)
	}
	scale := pow10[prec]
	p := ax * scale
	e := math.FMA(ax, scale, -p)
	fl := math.Floor(p)
	r := p - fl
	n := uint64(fl)
	if r > 0.5 || (r == 0.5 && (e > 0 || (e == 0 && n&1 == 1))) {
		n++
	}
	if math.Signbit(x) {
		b = append(b, '-')
	}
	unit := uint64(scale)
	b = strconv.AppendUint(b, n/unit, 10)
	if prec == 0 {
		return b
	}
	b = append(b, '.')
	frac := n % unit
	var d [9]byte
	for i := prec - 1; i >= 0; i-- {
		d[i] = byte('0' + frac%10)
		frac /= 10
	}
	return append(b, d[:prec]...)
}
