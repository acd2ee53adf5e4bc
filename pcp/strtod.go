package pcp

import "github.com/gopcp/gopcp/internal/cstrtod"

// Strtod is glibc's strtod in the C locale (C's white space, then the
// number): the value, the bytes taken (0: none) and whether errno would be
// ERANGE. pmapi's readers of values and intervals and the tools share it,
// so that "-nan", "nan(chars)", hexadecimal floats and their rounding
// are read as libpcp reads them; it is internal/cstrtod's Parse, the
// module's one strtod.
func Strtod(s string) (v float64, n int, erange bool) { return cstrtod.Parse(s) }
