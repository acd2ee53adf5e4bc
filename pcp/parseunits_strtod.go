package pcp

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// unitsStrtod reads a number from the start of s as glibc's strtod does in
// the C locale, because pmParseUnitsStr hands its numeric factors to
// strtod and its accepted syntax and failures are therefore part of the
// units grammar: an optional sign; decimal digits with an optional point
// and "e" exponent; "0x" hex digits with an optional point and "p"
// exponent; "inf", "infinity", "nan" or "nan(chars)", in any case. Only
// the longest well-formed prefix is taken.
//
// It returns the value, how many bytes were taken (0: none, strtod's "no
// conversion"), and whether strtod would set errno: on overflow, on a tiny
// result that is inexact, and on a NaN payload too big for strtoull.
func unitsStrtod(s string) (v float64, n int, erange bool) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	rest := s[i:]
	switch {
	case cHasPrefixFold(rest, "inf"):
		n = i + 3
		if cHasPrefixFold(rest, "infinity") {
			n = i + 8
		}
		return math.Copysign(math.Inf(1), strtodSign(neg)), n, false
	case cHasPrefixFold(rest, "nan"):
		v, n, erange = strtodNaN(rest)
		return math.Copysign(v, strtodSign(neg)), i + n, erange
	case len(rest) >= 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X') && strtodHexFollows(rest[2:]):
		v, n, erange = strtodHex(rest[2:])
		return math.Copysign(v, strtodSign(neg)), i + 2 + n, erange
	}
	v, n, erange = strtodDec(rest)
	if n == 0 {
		return 0, 0, false
	}
	return math.Copysign(v, strtodSign(neg)), i + n, erange
}

// Strtod is glibc's strtod in the C locale, as unitsStrtod has it: the
// value, the bytes taken (0: none) and whether errno would be ERANGE.
// pmapi's readers of values and intervals share it, so that "-nan",
// "nan(chars)" and hexadecimal floats are read as libpcp reads them.
func Strtod(s string) (v float64, n int, erange bool) { return unitsStrtod(s) }

func strtodSign(neg bool) float64 {
	if neg {
		return -1
	}
	return 1
}

func cHasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if cToLower(s[i]) != cToLower(prefix[i]) {
			return false
		}
	}
	return true
}

func cToLower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func cIsDigit(c byte) bool { return c >= '0' && c <= '9' }

func cHexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func strtodHexFollows(s string) bool {
	if len(s) > 0 && cHexVal(s[0]) >= 0 {
		return true
	}
	return len(s) > 1 && s[0] == '.' && cHexVal(s[1]) >= 0
}

// strtodNaN reads "nan" and an optional "(chars)" from s. glibc puts the
// chars, when strtoull (base 0) takes all of them, into the mantissa.
func strtodNaN(s string) (float64, int, bool) {
	n := 3
	bits := uint64(0x7ff8000000000000)
	erange := false
	if n < len(s) && s[n] == '(' {
		j := n + 1
		for j < len(s) && (cIsDigit(s[j]) || (cToLower(s[j]) >= 'a' && cToLower(s[j]) <= 'z') || s[j] == '_') {
			j++
		}
		if j < len(s) && s[j] == ')' {
			mant, all, overflow := strtoullBase0(s[n+1 : j])
			erange = overflow
			if all {
				bits |= mant & (1<<51 - 1)
			}
			n = j + 1
		}
	}
	return math.Float64frombits(bits), n, erange
}

// strtoullBase0 reads s as strtoull(s, &end, 0) would, s holding only
// letters, digits and underscores: it reports the value, whether all of s
// was taken, and whether the value overflowed.
func strtoullBase0(s string) (v uint64, all, overflow bool) {
	base := uint64(10)
	digits := s
	switch {
	case len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		if len(s) == 2 || cHexVal(s[2]) < 0 {
			return 0, len(s) == 1, false // just the "0"
		}
		base, digits = 16, s[2:]
	case len(s) >= 1 && s[0] == '0':
		base = 8
	}
	i := 0
	for ; i < len(digits); i++ {
		d := uint64(cHexVal(digits[i]))
		if cHexVal(digits[i]) < 0 || d >= base {
			break
		}
		if v > (math.MaxUint64-d)/base {
			overflow = true
		}
		v = v*base + d
	}
	return v, i == len(digits), overflow
}

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

func strtodDec(s string) (float64, int, bool) {
	intPart, fracPart, n := strtodMantissa(s, cIsDigit)
	if n == 0 {
		return 0, 0, false
	}
	exp := int64(0)
	if n < len(s) && (s[n] == 'e' || s[n] == 'E') {
		if e, m := strtodExp(s[n+1:]); m > 0 {
			exp, n = e, n+1+m
		}
	}
	sig, lead := strtodSignificant(intPart + fracPart)
	if sig == "" {
		return 0, n, false
	}
	// The value is 0.sig times 10^e10.
	e10 := exp + int64(len(intPart)) - int64(lead)
	switch {
	case e10 > 310:
		return math.Inf(1), n, true
	case e10 < -324:
		return 0, n, true
	}
	v, _ := strconv.ParseFloat("0."+sig+"e"+strconv.FormatInt(e10, 10), 64)
	if math.IsInf(v, 0) {
		return v, n, true
	}
	if v > strtodMinNormal {
		return v, n, false
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
	intPart, fracPart, n := strtodMantissa(s, isHex)
	exp := int64(0)
	if n < len(s) && (s[n] == 'p' || s[n] == 'P') {
		if e, m := strtodExp(s[n+1:]); m > 0 {
			exp, n = e, n+1+m
		}
	}
	sig, lead := strtodSignificant(intPart + fracPart)
	if sig == "" {
		return 0, n, false
	}
	// The value is 0x0.sig times 2^e2.
	e2 := exp + 4*(int64(len(intPart))-int64(lead))
	switch {
	case e2 > 1028:
		return math.Inf(1), n, true
	case e2 < -1076:
		return 0, n, true
	}
	v, _ := strconv.ParseFloat("0x0."+sig+"p"+strconv.FormatInt(e2, 10), 64)
	if math.IsInf(v, 0) {
		return v, n, true
	}
	if v > strtodMinNormal {
		return v, n, false
	}
	cut := len(sig) > strtodMaxHexDigits
	if cut {
		sig = sig[:strtodMaxHexDigits]
	}
	m, _ := new(big.Int).SetString(sig, 16)
	r := new(big.Rat).SetInt(m)
	shift := e2 - 4*int64(len(sig)) // small: e2 >= -1076, len(sig) <= 300
	pow := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(-shift)))
	r.Quo(r, pow)
	return v, n, strtodTinyInexact(r, v, cut)
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
