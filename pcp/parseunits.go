package pcp

import (
	"math"
	"strings"

	"github.com/gopcp/gopcp/internal/cstrtod"
)

// ParseUnitsError is pmParseUnitsStr's failure: Msg is the errmsg libpcp
// returns, word for word, and Err the status, always ErrConv as in PCP.
type ParseUnitsError struct {
	Input string
	Msg   string
	Err   Error
}

// Error returns Msg alone, so that it reads as libpcp's errmsg does.
func (e *ParseUnitsError) Error() string { return e.Msg }

func (e *ParseUnitsError) Unwrap() error { return e.Err }

// ParseUnits parses a units specification as pmParseUnitsStr does, into
// units and a multiplier: a value in the returned units, times the
// multiplier, is the value in the units the string names. So "2 count"
// gives count and 0.5, and "Kbyte / byte" no dimension and 1/1024.
//
// The text before the first "/" is the dividend and the rest the divisor.
// Each is a space-separated list of numbers (strtod's syntax; they
// multiply) and unit words, each optionally followed by "^n" for n in -8..15
// (without a space); at most one word per dimension: a time word
// ("nanosec", "ns", "millisecond", "s", "hr", "time-7", ...), a space word
// ("byte", "KB", "KiB", "Kbyte", "Kibibytes", "Kilobyte", ..., "space-9")
// and a count word ("count", "counts", "count x 10", "count x 10^-8" up to
// "count x 10^7"). Words are matched without regard to ASCII case.
//
// When both sides name a dimension (or neither does) its scale becomes the
// base one (byte, sec, count) and the difference goes into the multiplier.
// Every output of Units.String parses back to its units with multiplier 1,
// except "x 10^n" (no dimension) and "count x 10^n" for n in 2..7 when it
// means count x 10 to the n, which reads as the scale 10^n.
//
// Failures are *ParseUnitsError wrapping ErrConv, with libpcp's errmsg. On
// failure the units are zero and the multiplier 1. As in C, the string
// ends at its first NUL byte.
//
// libpcp aborts (an assertion fails) when time appears on both sides, or
// on neither side after a time word with the power 0, and either side's
// scale is beyond "hour" ("time-6" to "time-15"); ParseUnits fails there
// with the message "time scale out of range".
func ParseUnits(s string) (Units, float64, error) {
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	fail := func(msg string) (Units, float64, error) {
		return Units{}, 1, &ParseUnitsError{Input: s, Msg: msg, Err: ErrConv}
	}
	dividendText, divisorText, _ := strings.Cut(s, "/")
	dividend, dividendMult, msg := parseUnitsPart(dividendText)
	if msg != "" {
		return fail(msg)
	}
	divisor, divisorMult, msg := parseUnitsPart(divisorText)
	if msg != "" {
		return fail(msg)
	}

	var u Units
	var ok bool
	if u.DimSpace, ok = unitsDim(dividend.dimSpace - divisor.dimSpace); !ok {
		return fail("space dimension out of bounds")
	}
	if u.DimTime, ok = unitsDim(dividend.dimTime - divisor.dimTime); !ok {
		return fail("time dimension out of bounds")
	}
	if u.DimCount, ok = unitsDim(dividend.dimCount - divisor.dimCount); !ok {
		return fail("count dimension out of bounds")
	}

	mult := divisorMult / dividendMult
	pw := unitsPowers()

	switch {
	case dividend.dimSpace == 0 && divisor.dimSpace != 0:
		u.ScaleSpace = uint8(divisor.scaleSpace)
	case divisor.dimSpace == 0 && dividend.dimSpace != 0:
		u.ScaleSpace = uint8(dividend.scaleSpace)
	default: // the scale is byte (0)
		// Powers of 1024 are powers of two, so Ldexp is exact where C's
		// pow is, overflow and underflow included.
		mult *= math.Ldexp(1, -10*dividend.scaleSpace*dividend.dimSpace)
		mult *= math.Ldexp(1, 10*divisor.scaleSpace*divisor.dimSpace)
	}

	switch {
	case dividend.dimCount == 0 && divisor.dimCount != 0:
		u.ScaleCount = int8(divisor.scaleCount)
	case divisor.dimCount == 0 && dividend.dimCount != 0:
		u.ScaleCount = int8(dividend.scaleCount)
	default: // the scale is one (0)
		mult *= pw.count[dividend.scaleCount-unitsMinCountScale][-dividend.dimCount-unitsMinPower]
		mult *= pw.count[divisor.scaleCount-unitsMinCountScale][divisor.dimCount-unitsMinPower]
	}

	switch {
	case dividend.dimTime == 0 && divisor.dimTime != 0:
		u.ScaleTime = uint8(divisor.scaleTime)
	case divisor.dimTime == 0 && dividend.dimTime != 0:
		u.ScaleTime = uint8(dividend.scaleTime)
	default:
		if dividend.scaleTime > int(TimeHour) || divisor.scaleTime > int(TimeHour) {
			return fail("time scale out of range")
		}
		mult *= pw.time[dividend.scaleTime][-dividend.dimTime-unitsMinPower]
		mult *= pw.time[divisor.scaleTime][divisor.dimTime-unitsMinPower]
		if u.DimTime != 0 {
			u.ScaleTime = TimeSec
		}
	}
	return u, mult, nil
}

// unitsDim narrows a dimension to pmUnits' signed 4-bit field.
func unitsDim(d int) (int8, bool) {
	if d < -8 || d > 7 {
		return 0, false
	}
	return int8(d), true
}

// unitsPart is one side of a units specification, with room for powers a
// 4-bit field cannot hold: "/ byte^8" is how -8 is written.
type unitsPart struct {
	dimSpace, dimTime, dimCount       int
	scaleSpace, scaleTime, scaleCount int
}

// unitsWord is a word of the grammar and the scale (or power) it stands for.
type unitsWord struct {
	word  string
	scale int
}

// The words, in libpcp's order: the first that matches wins, which is
// what makes "count x 10^2" scale 2 but "count x 10^8" scale 1 to the
// 8th power. The space words are, for each scale from K to Y, the eight
// forms libpcp lists ("KB", "KiB", "Kbytes", "Kbyte", "Kibibytes",
// "Kibibyte", "Kilobytes", "Kilobyte"), after "bytes" and "byte" and
// before "space-n"; TestUnitsSpaceWords checks the literal against that
// rule. Literals cost nothing at start-up.
var (
	unitsTimeWords = []unitsWord{
		{"nanoseconds", 0}, {"nanosecond", 0}, {"nanosec", 0}, {"ns", 0},
		{"microseconds", 1}, {"microsecond", 1}, {"microsec", 1}, {"us", 1},
		{"milliseconds", 2}, {"millisecond", 2}, {"millisec", 2}, {"ms", 2},
		{"seconds", 3}, {"second", 3}, {"sec", 3}, {"s", 3},
		{"minutes", 4}, {"minute", 4}, {"min", 4},
		{"hours", 5}, {"hour", 5}, {"hr", 5}, {"h", 5},
		{"time-0", 0}, {"time-2", 2}, {"time-3", 3}, {"time-4", 4},
		{"time-5", 5}, {"time-6", 6}, {"time-7", 7}, {"time-8", 8},
		{"time-9", 9}, {"time-10", 10}, {"time-11", 11}, {"time-12", 12},
		{"time-13", 13}, {"time-14", 14}, {"time-15", 15}, {"time-1", 1},
	}
	unitsSpaceWords = []unitsWord{
		{"bytes", 0}, {"byte", 0}, {"KB", 1}, {"KiB", 1},
		{"Kbytes", 1}, {"Kbyte", 1}, {"Kibibytes", 1}, {"Kibibyte", 1},
		{"Kilobytes", 1}, {"Kilobyte", 1}, {"MB", 2}, {"MiB", 2},
		{"Mbytes", 2}, {"Mbyte", 2}, {"Mebibytes", 2}, {"Mebibyte", 2},
		{"Megabytes", 2}, {"Megabyte", 2}, {"GB", 3}, {"GiB", 3},
		{"Gbytes", 3}, {"Gbyte", 3}, {"Gibibytes", 3}, {"Gibibyte", 3},
		{"Gigabytes", 3}, {"Gigabyte", 3}, {"TB", 4}, {"TiB", 4},
		{"Tbytes", 4}, {"Tbyte", 4}, {"Tebibytes", 4}, {"Tebibyte", 4},
		{"Terabytes", 4}, {"Terabyte", 4}, {"PB", 5}, {"PiB", 5},
		{"Pbytes", 5}, {"Pbyte", 5}, {"Pebibytes", 5}, {"Pebibyte", 5},
		{"Petabytes", 5}, {"Petabyte", 5}, {"EB", 6}, {"EiB", 6},
		{"Ebytes", 6}, {"Ebyte", 6}, {"Exbibytes", 6}, {"Exbibyte", 6},
		{"Exabytes", 6}, {"Exabyte", 6}, {"ZB", 7}, {"ZiB", 7},
		{"Zbytes", 7}, {"Zbyte", 7}, {"Zebibytes", 7}, {"Zebibyte", 7},
		{"Zettabytes", 7}, {"Zettabyte", 7}, {"YB", 8}, {"YiB", 8},
		{"Ybytes", 8}, {"Ybyte", 8}, {"Yobibytes", 8}, {"Yobibyte", 8},
		{"Yottabytes", 8}, {"Yottabyte", 8}, {"space-0", 0}, {"space-2", 2},
		{"space-3", 3}, {"space-4", 4}, {"space-5", 5}, {"space-6", 6},
		{"space-7", 7}, {"space-8", 8}, {"space-9", 9}, {"space-10", 10},
		{"space-11", 11}, {"space-12", 12}, {"space-13", 13}, {"space-14", 14},
		{"space-15", 15}, {"space-1", 1},
	}
	unitsCountWords = []unitsWord{
		{"count x 10^-8", -8}, {"count x 10^-7", -7}, {"count x 10^-6", -6},
		{"count x 10^-5", -5}, {"count x 10^-4", -4}, {"count x 10^-3", -3},
		{"count x 10^-2", -2}, {"count x 10^-1", -1},
		{"count x 10^2", 2}, {"count x 10^3", 3}, {"count x 10^4", 4},
		{"count x 10^5", 5}, {"count x 10^6", 6}, {"count x 10^7", 7},
		{"count x 10", 1}, {"counts", 0}, {"count", 0},
	}
	unitsPowerWords = []unitsWord{
		{"^-8", -8}, {"^-7", -7}, {"^-6", -6}, {"^-5", -5},
		{"^-4", -4}, {"^-3", -3}, {"^-2", -2}, {"^-1", -1},
		{"^0", 0}, {"^2", 2}, {"^3", 3}, {"^4", 4}, {"^5", 5}, {"^6", 6}, {"^7", 7},
		{"^8", 8}, {"^9", 9}, {"^10", 10}, {"^11", 11}, {"^12", 12},
		{"^13", 13}, {"^14", 14}, {"^15", 15}, {"^1", 1},
	}
)

// cIsSpace is C's isspace in the C locale.
func cIsSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

func cIsDigit(c byte) bool { return c >= '0' && c <= '9' }

// cHasPrefixFold is strncasecmp's prefix test; the words are ASCII, so
// EqualFold's Unicode folds cannot match a text of their byte length.
func cHasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// unitsMatchWord returns the first word of ws that s starts with (ignoring
// ASCII case) and that is followed by a space, "^" or the end of s.
func unitsMatchWord(s string, ws []unitsWord) (unitsWord, bool) {
	for _, w := range ws {
		n := len(w.word)
		if cHasPrefixFold(s, w.word) && (n == len(s) || cIsSpace(s[n]) || s[n] == '^') {
			return w, true
		}
	}
	return unitsWord{}, false
}

// parseUnitsPart parses one side of the "/"; msg is libpcp's errmsg when
// it fails.
func parseUnitsPart(s string) (p unitsPart, mult float64, msg string) {
	mult = 1
	for len(s) > 0 {
		c := s[0]
		if cIsSpace(c) {
			s = s[1:]
			continue
		}
		if c == '-' || c == '.' || cIsDigit(c) {
			m, n, erange := cstrtod.Parse(s)
			if erange || n == 0 {
				return unitsPart{}, 1, "invalid floating point literal"
			}
			mult *= m
			s = s[n:]
			continue
		}
		var dim *int
		if w, ok := unitsMatchWord(s, unitsTimeWords); ok && p.dimTime == 0 {
			p.scaleTime, dim, s = w.scale, &p.dimTime, s[len(w.word):]
		} else if w, ok := unitsMatchWord(s, unitsSpaceWords); ok && p.dimSpace == 0 {
			p.scaleSpace, dim, s = w.scale, &p.dimSpace, s[len(w.word):]
		} else if w, ok := unitsMatchWord(s, unitsCountWords); ok && p.dimCount == 0 {
			p.scaleCount, dim, s = w.scale, &p.dimCount, s[len(w.word):]
		} else {
			return unitsPart{}, 1, "unrecognized or duplicate base unit"
		}
		if len(s) == 0 || cIsSpace(s[0]) {
			*dim = 1
		} else if w, ok := unitsMatchWord(s, unitsPowerWords); ok {
			*dim, s = w.scale, s[len(w.word):]
		}
		// Otherwise s is at a "^" no power matches: the next round fails.
	}
	return p, mult, ""
}

// Ranges of the precomputed powers: count scales -8..7, and powers -15..15
// (a side's power is -8..15 and may be negated).
const (
	unitsMinCountScale = -8
	unitsMinPower      = -15
	unitsNumPowers     = 31
)

// unitsPowerTable holds pow(pow(10, s), n) and pow(time_scales[s], n) as
// glibc computes them for pmParseUnitsStr: correctly rounded, which Go's
// math.Pow is not always. The values are in unitspowers_table.go, written
// by a test from exact rational arithmetic: computing them at run time
// took about 17 ms, a third of a tool's start-up.
type unitsPowerTable struct {
	count [16][unitsNumPowers]float64
	time  [6][unitsNumPowers]float64
}

func unitsPowers() *unitsPowerTable { return &unitsPowersTable }
