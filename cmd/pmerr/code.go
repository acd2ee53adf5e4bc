package main

import "math"

// parseCode reads an argument as PCP's pmerr does: "0x" or "0X" and
// nothing but hex digits is sscanf's %x (the low 32 bits of a value
// saturated at 64), anything else sscanf's %d, a decimal prefix after
// blanks and a sign, saturated at 64 bits and then cut to the low 32 as
// glibc stores it into an int.
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

// scanDecimal is sscanf's %d: white space, an optional sign, then at
// least one digit; what follows the digits is ignored.
func scanDecimal(s string) (int32, bool) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] >= '\t' && s[i] <= '\r') {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	var v uint64 // magnitude, saturated past what an int64 holds
	const limit = uint64(math.MaxInt64) + 1
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		if v <= limit {
			v = min(v*10+uint64(s[i]-'0'), limit+1)
		}
	}
	if i == start {
		return 0, false
	}
	var n int64
	switch {
	case neg && v >= limit:
		n = math.MinInt64
	case neg:
		n = -int64(v)
	case v >= limit:
		n = math.MaxInt64
	default:
		n = int64(v)
	}
	return int32(n), true
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
