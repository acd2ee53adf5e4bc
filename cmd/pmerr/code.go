package main

import (
	"math"

	"github.com/gopcp/gopcp/internal/getopt"
)

// parseCode reads an argument as PCP's pmerr does: "0x" or "0X" and
// nothing but hex digits is sscanf's %x (the low 32 bits of a value
// saturated at 64), anything else sscanf's %d.
func parseCode(s string) (int32, bool) {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		hex := s[2:]
		all := true
		for i := 0; i < len(hex); i++ {
			all = all && isHexDigit(hex[i])
		}
		if all {
			var v uint64
			for i := 0; i < len(hex); i++ {
				d := uint64(hexValue(hex[i]))
				if v > (math.MaxUint64-d)/16 {
					v = math.MaxUint64
					break
				}
				v = v*16 + d
			}
			return int32(uint32(v)), true
		}
	}
	return scanDecimal(s)
}

// scanDecimal is sscanf's %d: strtol's reading (white space, a sign,
// at least one digit, saturated at 64 bits) stored into an int, which
// keeps the low 32 bits.
func scanDecimal(s string) (int32, bool) {
	n, end, _ := getopt.CStrtol(s, 10)
	return int32(n), end > 0
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexValue(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
