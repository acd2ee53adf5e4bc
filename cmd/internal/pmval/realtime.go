package pmval

import (
	"math"
	"math/big"
	"math/bits"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// realTime is libpcp's pmtimespecToReal: the seconds and the fraction
// added in x87 long double arithmetic (a 64-bit significand), then
// rounded to a double. Differences of two such times lose what a double
// cannot hold of a time near 2^31 seconds, and pmval's rates divide by
// that difference, so a difference taken exactly gives other last digits.
//
// It runs for every line pmval prints, so the two roundings to 64 bits
// and the last to 53 are done in 128-bit integer arithmetic; math/big
// (realTimeBig, the same roundings) took a quarter of pmval's CPU on a
// long archive. Times outside what 128 bits hold go to realTimeBig.
func realTime(sec int64, nsec int64) float64 {
	if nsec < 0 || nsec >= 1e9 || sec < 0 || sec >= 1<<34 {
		return realTimeBig(sec, nsec)
	}
	if nsec == 0 {
		return float64(sec)
	}
	// q = nsec/1e9 rounded to 64 bits: m * 2^-k with m in [2^63, 2^64)
	k := uint(93 - bits.Len64(uint64(nsec)))
	m, r := divScaled(uint64(nsec), k)
	if m < 1<<63 {
		k++
		m, r = divScaled(uint64(nsec), k)
	}
	if 2*r > 1e9 || (2*r == 1e9 && m&1 == 1) {
		m++
		if m == 0 {
			m, k = 1<<63, k-1
		}
	}
	// S = sec*2^k + m exactly (k <= 92 and sec < 2^34 fit 128 bits)
	hi, lo := shl128(uint64(sec), k)
	var c uint64
	lo, c = bits.Add64(lo, m, 0)
	hi += c
	// rounded to 64 significant bits, to nearest even
	shift := 0
	if hi != 0 {
		shift = bits.Len64(hi)
		rem := lo & (1<<shift - 1)
		t := lo>>shift | hi<<(64-shift)
		half := uint64(1) << (shift - 1)
		if rem > half || (rem == half && t&1 == 1) {
			t++
			if t == 0 {
				t, shift = 1<<63, shift+1
			}
		}
		lo = t
	}
	// then to a double, to nearest even, and scaled back
	return math.Ldexp(float64(lo), shift-int(k))
}

// divScaled is nsec*2^k / 1e9 and its remainder; the quotient must fit
// 64 bits.
func divScaled(nsec uint64, k uint) (q, r uint64) {
	hi, lo := shl128(nsec, k)
	return bits.Div64(hi, lo, 1e9)
}

// shl128 is x << k as 128 bits, for k < 128.
func shl128(x uint64, k uint) (hi, lo uint64) {
	switch {
	case k == 0:
		return 0, x
	case k < 64:
		return x >> (64 - k), x << k
	default:
		return x << (k - 64), 0
	}
}

// realTimeBig is realTime in math/big, for any time.
func realTimeBig(sec int64, nsec int64) float64 {
	var s, f big.Float
	f.SetPrec(64).SetInt64(nsec)
	f.Quo(&f, big.NewFloat(1e9))
	s.SetPrec(64).SetInt64(sec)
	s.Add(&s, &f)
	x, _ := s.Float64()
	return x
}

func stampReal(t pcp.Timestamp) float64 { return realTime(t.Sec, int64(t.Nsec)) }

func timeReal(t time.Time) float64 { return realTime(t.Unix(), int64(t.Nanosecond())) }
