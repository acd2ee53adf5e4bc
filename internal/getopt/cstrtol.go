package getopt

import "strings"

// CStrtol is C's strtol(s, &end, base) on a 64-bit long (glibc's rules),
// for base 0 (the base from the prefix: 0x hexadecimal, 0 octal, else
// decimal) or 2 to 36: leading white space, a sign, an optional 0x for
// base 0 or 16 only when a hexadecimal digit follows it, then the longest
// run of digits. end is the offset just past the digits, 0 when there
// were none (C's end == s). Out of range saturates at the long's limits
// with overflow true (C's ERANGE). Any other base reads nothing.
func CStrtol(s string, base int) (n int64, end int, overflow bool) {
	if base != 0 && (base < 2 || base > 36) {
		return 0, 0, false
	}
	i := len(s) - len(strings.TrimLeft(s, " \t\n\v\f\r"))
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	b := uint64(base)
	hex := i+2 < len(s) && s[i] == '0' && s[i+1]|0x20 == 'x' && digitValue(s[i+2]) < 16
	switch {
	case (base == 0 || base == 16) && hex:
		b, i = 16, i+2
	case base == 0 && i < len(s) && s[i] == '0':
		b = 8
	case base == 0:
		b = 10
	}
	const limit = 1 << 63 // the magnitude of LONG_MIN
	var u uint64
	over := false
	start := i
	for ; i < len(s) && digitValue(s[i]) < b; i++ {
		d := digitValue(s[i])
		if over || u > (limit-d)/b {
			over = true
			continue
		}
		u = u*b + d
	}
	switch {
	case i == start:
		return 0, 0, false
	case neg && (over || u > limit):
		return -limit, i, true
	case neg:
		return -int64(u-1) - 1, i, false
	case over || u >= limit:
		return limit - 1, i, true
	}
	return int64(u), i, false
}

// CAtoi is C's atoi as glibc has it: (int)strtol(s, NULL, 10), the long
// cut to its low 32 bits.
func CAtoi(s string) int {
	n, _, _ := CStrtol(s, 10)
	return int(int32(n))
}

// digitValue is c's value as a digit in any base up to 36, else 99.
func digitValue(c byte) uint64 {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0')
	case c|0x20 >= 'a' && c|0x20 <= 'z':
		return uint64(c|0x20-'a') + 10
	}
	return 99
}
