package main

import "strings"

// strtol0 is C's strtol(s, NULL, 0) as PCP's pmproxy reads -L and -r:
// the base from the prefix (0x hexadecimal, 0 octal, else decimal), the
// longest run of digits taken and whatever follows ignored, 0 when
// there are none. Overflow saturates.
func strtol0(s string) int64 {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	base := int64(10)
	switch {
	case len(t) > 2 && t[0] == '0' && (t[1]|0x20) == 'x' && digit(t[2], 16) >= 0:
		base, t = 16, t[2:]
	case len(t) > 0 && t[0] == '0':
		base = 8
	}
	var n int64
	for i := 0; i < len(t); i++ {
		d := digit(t[i], base)
		if d < 0 {
			break
		}
		if n <= (1<<63-1-d)/base {
			n = n*base + d
		} else {
			n = 1<<63 - 1
		}
	}
	if neg {
		n = -n
	}
	return n
}

// digit is c's value in base, or -1.
func digit(c byte, base int64) int64 {
	var d int64
	switch {
	case c >= '0' && c <= '9':
		d = int64(c - '0')
	case (c|0x20) >= 'a' && (c|0x20) <= 'z':
		d = int64(c|0x20-'a') + 10
	default:
		return -1
	}
	if d >= base {
		return -1
	}
	return d
}
