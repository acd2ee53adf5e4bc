package getopt

import "github.com/gopcp/gopcp/internal/cstrtod"

// CStrtol is C's strtol(s, &end, base) on a 64-bit long (glibc's rules,
// cstrtod.ParseInt's reading), for base 0 (the base from the prefix: 0x
// hexadecimal, 0 octal, else decimal) or 2 to 36: leading white space, a
// sign, an optional 0x for base 0 or 16 only when a hexadecimal digit
// follows it, then the longest run of digits. end is the offset just
// past the digits, 0 when there were none (C's end == s). Out of range
// saturates at the long's limits with overflow true (C's ERANGE). Any
// other base reads nothing.
func CStrtol(s string, base int) (n int64, end int, overflow bool) {
	return cstrtod.ParseInt(s, base)
}

// CAtoi is C's atoi as glibc has it: (int)strtol(s, NULL, 10), the long
// cut to its low 32 bits.
func CAtoi(s string) int {
	n, _, _ := cstrtod.ParseInt(s, 10)
	return int(int32(n))
}
