package cstrtod

import (
	"math"
	"math/bits"
)

// ParseUint reads an integer from the start of s as glibc's
// strtoull(s, &end, base) does, and so strtoul too (a long has 64 bits),
// in the C locale: leading white space (C's isspace), an optional sign,
// then for base 0 a prefix choosing the base ("0x" or "0X" hexadecimal
// when a hex digit follows, "0" octal, else decimal), for base 16 an
// optional "0x" under the same condition, and the longest run of digits
// of the base (letters of either case count from 10). glibc 2.36, whose
// strtol family PCP 6.0.3 on Debian 12 calls, reads no "0b" prefix: its
// C23 entry points, which would, came with 2.38.
//
// It returns the value, how many bytes were taken (0: no digits, C's
// end == s; "0x" with no hex digit after it takes just the "0") and
// whether strtoull sets errno to ERANGE, the value then being the largest
// uint64 whatever the sign. A '-' negates the value modulo 2^64, as C's
// unsigned arithmetic does. A base other than 0 or 2 to 36 reads nothing
// (glibc's EINVAL).
//
// s may be a string or a byte slice: agents read their files' bytes
// without making strings of them, and nothing is allocated.
func ParseUint[T ~string | ~[]byte](s T, base int) (v uint64, n int, erange bool) {
	mag, neg, n, over := parseInteger(s, base)
	switch {
	case over:
		return math.MaxUint64, n, true
	case neg:
		return -mag, n, false
	}
	return mag, n, false
}

// ParseInt is ParseUint's reading as glibc's strtoll(s, &end, base) (and
// strtol) does: a value beyond the int64 range is clamped to its nearer
// limit with erange true.
func ParseInt[T ~string | ~[]byte](s T, base int) (v int64, n int, erange bool) {
	mag, neg, n, over := parseInteger(s, base)
	const limit = 1 << 63 // the magnitude of the smallest int64
	switch {
	case neg && (over || mag > limit):
		return math.MinInt64, n, true
	case neg:
		return int64(-mag), n, false // mag == limit wraps to the smallest
	case over || mag >= limit:
		return math.MaxInt64, n, true
	}
	return int64(mag), n, false
}

// parseInteger is the reading both share: the magnitude of the digits
// (over when it passed 64 bits), the sign, and the bytes taken.
func parseInteger[T ~string | ~[]byte](s T, base int) (mag uint64, neg bool, n int, over bool) {
	if base != 0 && (base < 2 || base > 36) {
		return 0, false, 0, false
	}
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] >= '\t' && s[i] <= '\r') {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	b := uint64(base)
	switch {
	case (base == 0 || base == 16) && i+1 < len(s) && s[i] == '0' && s[i+1]|0x20 == 'x':
		if i+2 >= len(s) || digitValue(s[i+2]) >= 16 {
			return 0, false, i + 1, false // the "0" alone
		}
		b, i = 16, i+2
	case base == 0 && i < len(s) && s[i] == '0':
		b = 8
	case base == 0:
		b = 10
	}
	start := i
	for ; i < len(s); i++ {
		d := digitValue(s[i])
		if d >= b {
			break
		}
		if over {
			continue
		}
		hi, lo := bits.Mul64(mag, b)
		lo, carry := bits.Add64(lo, d, 0)
		over = hi != 0 || carry != 0
		mag = lo
	}
	if i == start {
		return 0, false, 0, false
	}
	return mag, neg, i, over
}

// digitValue is c's value as a digit of a base up to 36, else 99.
func digitValue(c byte) uint64 {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0')
	case c|0x20 >= 'a' && c|0x20 <= 'z':
		return uint64(c|0x20-'a') + 10
	}
	return 99
}
