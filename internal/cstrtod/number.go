package cstrtod

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// strtodExpLimit caps exponents as they are read: far beyond any double, and
// far from overflowing the arithmetic done on them.
const strtodExpLimit = 1 << 40

// strtodExp reads an exponent's optional sign and digits from s (just past
// the 'e' or 'p'); n is 0 when there are no digits, so no exponent.
func strtodExp(s string) (e int64, n int) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	for ; i < len(s) && cIsDigit(s[i]); i++ {
		if e < strtodExpLimit {
			e = e*10 + int64(s[i]-'0')
		}
	}
	if i == start {
		return 0, 0
	}
	if neg {
		e = -e
	}
	return e, i
}

// strtodMantissa splits the digits (as accepted by digit) before and after
// an optional point at the start of s.
func strtodMantissa(s string, digit func(byte) bool) (intPart, fracPart string, n int) {
	i := 0
	for i < len(s) && digit(s[i]) {
		i++
	}
	intPart = s[:i]
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && digit(s[j]) {
			j++
		}
		fracPart = s[i+1 : j]
		i = j
	}
	if intPart == "" && fracPart == "" {
		return "", "", 0
	}
	return intPart, fracPart, i
}

// significant strips the leading zeros (counted in lead) and the trailing
// zeros of a run of digits.
func strtodSignificant(digits string) (sig string, lead int) {
	t := strings.TrimLeft(digits, "0")
	return strings.TrimRight(t, "0"), len(digits) - len(t)
}

// strtodMaxDigits bounds the digits kept for the exactness check: beyond it
// a value cannot be exact (a double has at most 767 significant decimal
// digits), and cutting there cannot move it across the tininess bound.
const strtodMaxDigits = 800

// strtodNumber reads the mantissa (digits as digit accepts) and the
// exponent after its letter, n being 0 when there are no digits.
func strtodNumber(s string, digit func(byte) bool, letter byte) (intPart, fracPart string, exp int64, n int) {
	intPart, fracPart, n = strtodMantissa(s, digit)
	if n > 0 && n < len(s) && s[n]|0x20 == letter {
		if e, m := strtodExp(s[n+1:]); m > 0 {
			exp, n = e, n+1+m
		}
	}
	return intPart, fracPart, exp, n
}

// strtodRound is the value of prefix+sig with the exponent e (its letter
// given), rounded, when e is within [lo, hi]; done unless the value is
// tiny, and so needs the exactness check for ERANGE.
func strtodRound(prefix, sig, letter string, e, lo, hi int64) (v float64, done, erange bool) {
	switch {
	case e > hi:
		return math.Inf(1), true, true
	case e < lo:
		return 0, true, true
	}
	v, _ = strconv.ParseFloat(prefix+sig+letter+strconv.FormatInt(e, 10), 64)
	if math.IsInf(v, 0) {
		return v, true, true
	}
	return v, v > strtodMinNormal, false
}

func strtodDec(s string) (float64, int, bool) {
	intPart, fracPart, exp, n := strtodNumber(s, cIsDigit, 'e')
	if n == 0 {
		return 0, 0, false
	}
	sig, lead := strtodSignificant(intPart + fracPart)
	if sig == "" {
		return 0, n, false
	}
	// The value is 0.sig times 10^e10.
	e10 := exp + int64(len(intPart)) - int64(lead)
	v, done, erange := strtodRound("0.", sig, "e", e10, -324, 310)
	if done {
		return v, n, erange
	}
	cut := len(sig) > strtodMaxDigits
	if cut {
		sig = sig[:strtodMaxDigits]
	}
	r, _ := new(big.Rat).SetString("0." + sig + "e" + strconv.FormatInt(e10, 10))
	return v, n, strtodTinyInexact(r, v, cut)
}

// strtodMaxHexDigits plays strtodMaxDigits's part for hex mantissas.
const strtodMaxHexDigits = 300

func strtodHex(s string) (float64, int, bool) {
	isHex := func(c byte) bool { return cHexVal(c) >= 0 }
	intPart, fracPart, exp, n := strtodNumber(s, isHex, 'p')
	sig, lead := strtodSignificant(intPart + fracPart)
	if sig == "" {
		return 0, n, false
	}
	// The value is 0x0.sig times 2^e2.
	e2 := exp + 4*(int64(len(intPart))-int64(lead))
	v, done, erange := strtodRound("0x0.", sig, "p", e2, -1076, 1028)
	if done {
		return v, n, erange
	}
	cut := len(sig) > strtodMaxHexDigits
	if cut {
		// the digits dropped count only as a non-zero tail
		sig = sig[:strtodMaxHexDigits] + "1"
	}
	m, _ := new(big.Int).SetString(sig, 16)
	shift := e2 - 4*int64(len(sig)) // small: e2 >= -1076, len(sig) <= 301
	r := hexRat(m, shift)
	tiny := r.Cmp(strtodTinyBound()) < 0
	if l := m.BitLen(); l > 53 && r.Cmp(new(big.Rat).SetFloat64(strtodMinNormal)) < 0 {
		// glibc reads a hex mantissa to 53 bits, the next bit and
		// whether any after it are set; when the value is subnormal it
		// shifts those 53 bits right and loses that next bit, rounding
		// (and telling ERANGE) as if it were zero.
		m.SetBit(m, l-54, 0)
		r = hexRat(m, shift)
		v, _ = strconv.ParseFloat("0x"+m.Text(16)+"p"+strconv.FormatInt(shift, 10), 64)
	}
	return v, n, tiny && r.Cmp(new(big.Rat).SetFloat64(v)) != 0
}

// hexRat is m times 2^shift, shift negative.
func hexRat(m *big.Int, shift int64) *big.Rat {
	return new(big.Rat).SetFrac(m, new(big.Int).Lsh(big.NewInt(1), uint(-shift)))
}

// strtodMinNormal is the smallest normal double, 2^-1022.
const strtodMinNormal = 0x1p-1022

// strtodTinyBound is 2^-1022 - 2^-1076: the exact values below it round, to 53
// bits and an unbounded exponent, to less than 2^-1022. glibc sets ERANGE
// when such a tiny value does not convert exactly.
// It is made at each use, as only tiny numbers need it: a package-level
// value (even one made on first use, whose maker package initialisation
// refers to) would link math/big's arithmetic into every program that
// imports pcp, and its pages would count in their resident memory.
func strtodTinyBound() *big.Rat {
	return new(big.Rat).Sub(
		new(big.Rat).SetFloat64(strtodMinNormal),
		new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 1076)))
}

// strtodTinyInexact reports whether the exact value r (non-negative; cut if
// digits were dropped from it) is tiny and v is not exactly it.
func strtodTinyInexact(r *big.Rat, v float64, cut bool) bool {
	if r.Cmp(strtodTinyBound()) >= 0 {
		return false
	}
	return cut || r.Cmp(new(big.Rat).SetFloat64(v)) != 0
}
