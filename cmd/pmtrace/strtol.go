package main

import "strings"

// strtol reads s as C's strtol(s, &end, 0) does: leading blanks, a
// sign, then hexadecimal after 0x, octal after 0, else decimal, the
// longest run of digits; out of range saturates at the long's limits.
// end is the offset after the digits read, 0 when there were none (C's
// end == s), so the caller can ask for the whole argument.
func strtol(s string) (n int64, end int) {
	i := len(s) - len(strings.TrimLeft(s, " \t\n\v\f\r"))
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	base := uint64(10)
	switch {
	case i+2 < len(s) && s[i] == '0' && s[i+1]|0x20 == 'x' && digit(s[i+2]) < 16:
		base, i = 16, i+2
	case i < len(s) && s[i] == '0':
		base = 8
	}
	const limit = 1 << 63
	var u uint64
	over := false
	start := i
	for ; i < len(s) && digit(s[i]) < base; i++ {
		d := digit(s[i])
		if u > (limit-d)/base {
			over = true
			continue
		}
		u = u*base + d
	}
	if i == start {
		return 0, 0
	}
	switch {
	case neg && (over || u >= limit):
		return -limit, i
	case neg:
		return -int64(u), i
	case over || u >= limit:
		return limit - 1, i
	}
	return int64(u), i
}

// digit is c's value as a digit in any base up to 36, or 99.
func digit(c byte) uint64 {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0')
	case c|0x20 >= 'a' && c|0x20 <= 'z':
		return uint64(c|0x20-'a') + 10
	}
	return 99
}
