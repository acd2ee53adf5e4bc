package main

import (
	"errors"
	"time"

	"github.com/gopcp/gopcp/internal/cstrtod"
	"github.com/gopcp/gopcp/pmapi"
)

// errSize is a -s or -v argument PCP's pmlogger refuses.
var errSize = errors.New("illegal size argument")

// sizeUnits are the byte units pmlogger's -s and -v take (lower case,
// any one trailing 's' already gone), by their multiplier.
var sizeUnits = map[string]int64{
	"b": 1, "byte": 1,
	"k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10, "kbyte": 1 << 10, "kibibyte": 1 << 10, "kilobyte": 1 << 10,
	"m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20, "mbyte": 1 << 20, "mebibyte": 1 << 20, "megabyte": 1 << 20,
	"g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30, "gbyte": 1 << 30, "gibibyte": 1 << 30, "gigabyte": 1 << 30,
}

// parseSize reads -s and -v arguments by PCP's pmlogger's rules: a
// positive number as strtol(3) reads it (leading white space and a sign
// allowed, clamped on overflow) that is all the argument counts samples
// (as a C int: one that does not fit wraps, and a count that ends up
// below one sets none); followed by a byte unit (b, k, kb, kib, kbyte,
// kibibyte, kilobyte and the same for m and g, in any case, with or
// without a plural 's') it is a size in bytes; else the whole argument
// must be a time interval. An argument whose number is missing or not
// positive is refused, intervals such as "0.5sec" included, as PCP
// refuses them.
func parseSize(arg string, samples *int, bytes *int64, d *time.Duration) error {
	x, n, _ := cstrtod.ParseInt(arg, 10)
	rest := arg[n:] // all of arg when there are no digits
	if x <= 0 {
		return errSize
	}
	if rest == "" {
		*samples = max(int(int32(x)), 0)
		return nil
	}
	unit := []byte(rest)
	for i, c := range unit {
		if c >= 'A' && c <= 'Z' {
			unit[i] = c + 'a' - 'A'
		}
	}
	if unit[len(unit)-1] == 's' {
		unit = unit[:len(unit)-1]
	}
	if m, ok := sizeUnits[string(unit)]; ok {
		*bytes = x * m // wraps as PCP's 64-bit arithmetic does
		return nil
	}
	v, err := pmapi.ParseInterval(arg)
	if err != nil {
		return errSize
	}
	*d = v
	return nil
}
