// Package cstrtod is glibc's strtod and strtol family in the C locale,
// the one reader of C's numeric text for the module: libpcp, the PCP
// tools and agents hand numbers to strtod and strtoull, so what these
// accept, where they stop, the NaN strtod makes and when they set ERANGE
// are part of what PCP accepts. It imports the standard library only, so
// that both pcp and internal/getopt can use it.
package cstrtod

import (
	"math"
	"strings"
)

// Parse reads a number from the start of s as strtod(s, &end) does:
// leading white space (C's isspace), an optional sign, then decimal digits
// with an optional point and "e" exponent, "0x" hex digits with an
// optional point and "p" exponent, or "inf", "infinity", "nan" or
// "nan(chars)" in any case. Only the longest well-formed prefix is taken;
// a NUL ends the text as it does in C.
//
// It returns the value, how many bytes were taken (0: none, strtod's "no
// conversion", end == s), and whether strtod would set errno to ERANGE: on
// overflow, on a tiny result that is inexact, and on a NaN payload too big
// for strtoull.
func Parse(s string) (v float64, n int, erange bool) {
	i := len(s) - len(strings.TrimLeft(s, " \t\n\v\f\r"))
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
		if overflow || v > (math.MaxUint64-d)/base {
			// strtoull's answer past its range is ULLONG_MAX
			v, overflow = math.MaxUint64, true
			continue
		}
		v = v*base + d
	}
	return v, i == len(digits), overflow
}
