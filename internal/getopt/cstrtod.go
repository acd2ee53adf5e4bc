package getopt

import (
	"math"
	"strconv"
	"strings"
)

// CStrtod is C's strtod(s, &end) as glibc has it in the C locale:
// leading white space, a sign, then "inf" or "infinity", "nan" with an
// optional parenthesised run of letters, digits and underscores, a
// hexadecimal float (0x, hex digits with an optional point, an optional
// p exponent) or a decimal one (digits with an optional point, an
// optional e exponent). An exponent letter without digits after it is
// not taken, nor is an 0x without a hex digit (then the 0 alone is
// read). Unlike strconv.ParseFloat there are no _ separators and a hex
// float needs no exponent. end is the offset just past what was read, 0
// when nothing was (C's end == s); a value out of range is ±Inf or a
// subnormal or zero as strtod gives (its ERANGE is not reported).
func CStrtod(s string) (v float64, end int) {
	i := len(s) - len(strings.TrimLeft(s, " \t\n\v\f\r"))
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	sign := func(x float64) float64 {
		if neg {
			return -x
		}
		return x
	}
	rest := s[i:]
	switch {
	case hasPrefixFold(rest, "infinity"):
		return sign(math.Inf(1)), i + 8
	case hasPrefixFold(rest, "inf"):
		return sign(math.Inf(1)), i + 3
	case hasPrefixFold(rest, "nan"):
		j := i + 3
		if j < len(s) && s[j] == '(' {
			k := j + 1
			for k < len(s) && isNanChar(s[k]) {
				k++
			}
			if k < len(s) && s[k] == ')' {
				j = k + 1
			}
		}
		return sign(math.NaN()), j
	}
	if len(rest) > 2 && rest[0] == '0' && rest[1]|0x20 == 'x' {
		if n := mantissaLen(rest[2:], 16); n > 0 {
			j := i + 2 + n
			j += exponentLen(s[j:], 'p')
			text := s[i:j]
			if !strings.ContainsAny(text[2:], "pP") {
				text += "p0"
			}
			return sign(parseToken(text)), j
		}
	}
	n := mantissaLen(rest, 10)
	if n == 0 {
		return 0, 0
	}
	j := i + n
	j += exponentLen(s[j:], 'e')
	return sign(parseToken(s[i:j])), j
}

// parseToken reads a token CStrtod has already checked; strconv rounds
// as glibc does (correctly) and gives ±Inf or zero beyond the range.
func parseToken(text string) float64 {
	v, _ := strconv.ParseFloat(text, 64)
	return v
}

// mantissaLen is the length of the digits (in base 10 or 16) with at
// most one point at the start of s, 0 unless a digit is among them.
func mantissaLen(s string, base uint64) int {
	i, digits := 0, 0
	for i < len(s) && digitValue(s[i]) < base {
		i, digits = i+1, digits+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && digitValue(s[i]) < base {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return 0
	}
	return i
}

// exponentLen is the length of an exponent (the letter, a sign, decimal
// digits) at the start of s, 0 when there are no digits.
func exponentLen(s string, letter byte) int {
	if s == "" || s[0]|0x20 != letter {
		return 0
	}
	i := 1
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == start {
		return 0
	}
	return i
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

func isNanChar(c byte) bool {
	return c == '_' || (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z')
}
