package access

import (
	"net"
	"strings"
)

// inetAton reads name as glibc's getaddrinfo reads a numeric IPv4 host
// (inet_aton, the whole name): one to four dot-separated numbers, each
// decimal, 0x hexadecimal or 0 octal, the last filling the bytes the
// others leave ("127.1" is 127.0.0.1, "0x7f.1" too). PCP's pmcd resolves
// [access] names through getaddrinfo, so these forms are addresses there,
// not names to look up.
func inetAton(name string) (net.IP, bool) {
	parts := strings.Split(name, ".")
	if len(parts) > 4 {
		return nil, false
	}
	var vals []uint64
	for _, p := range parts {
		v, ok := atonPart(p)
		if !ok {
			return nil, false
		}
		vals = append(vals, v)
	}
	last := vals[len(vals)-1]
	var addr uint64
	for i, v := range vals[:len(vals)-1] {
		if v > 0xff {
			return nil, false
		}
		addr |= v << (24 - 8*i)
	}
	if last >= 1<<(8*(5-len(vals))) {
		return nil, false
	}
	addr |= last
	return net.IPv4(byte(addr>>24), byte(addr>>16), byte(addr>>8), byte(addr)).To4(), true
}

// atonPart is one number of inetAton: a digit first, then 0x for
// hexadecimal (with a digit after it) or 0 for octal (8 and 9 refused),
// bounded by 32 bits.
func atonPart(p string) (uint64, bool) {
	if p == "" || p[0] < '0' || p[0] > '9' {
		return 0, false
	}
	base, digits := uint64(10), p
	switch {
	case len(p) > 1 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'):
		base, digits = 16, p[2:]
		if digits == "" {
			return 0, false
		}
	case p[0] == '0':
		base, digits = 8, p[1:]
	}
	var v uint64
	for i := 0; i < len(digits); i++ {
		d := digitOf(digits[i])
		if d >= base {
			return 0, false
		}
		v = v*base + d
		if v > 0xffffffff {
			return 0, false
		}
	}
	return v, true
}

// digitOf is c's value as a hexadecimal digit, else 99.
func digitOf(c byte) uint64 {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0')
	case c|0x20 >= 'a' && c|0x20 <= 'f':
		return uint64(c|0x20-'a') + 10
	}
	return 99
}
