package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"syscall"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// cNumber splits s as C's strto* functions read a decimal number: blanks,
// a sign, digits; rest is what they leave.
func cNumber(s string) (neg bool, digits, rest string) {
	i := 0
	for i < len(s) && strings.IndexByte(" \t\n\v\f\r", s[i]) >= 0 {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == i {
		return false, "", s
	}
	return neg, s[i:j], s[j:]
}

// parseValue converts the text of a store command as dbpmda does: in
// decimal with C's strtol family and strtod, the whole text a number.
func parseValue(text string, t pcp.Type) (pcp.Atom, error) {
	var a pcp.Atom
	incompatible := fmt.Errorf("Error: Value \"%s\" is incompatible with metric type (PM_TYPE_%s)\n", text, t)
	erange := fmt.Errorf("Error: Decoding value: %s\n", pcp.ErrorText(-int32(syscall.ERANGE)))
	integer := func(bits int, signed bool) (uint64, error) {
		neg, digits, rest := cNumber(text)
		if rest != "" {
			return 0, incompatible
		}
		if digits == "" {
			return 0, nil
		}
		u, err := strconv.ParseUint(digits, 10, 64)
		if err != nil {
			return 0, erange
		}
		if signed {
			// strtol/strtoll clamp at the limits with ERANGE
			limit := uint64(math.MaxInt64)
			if neg {
				limit++
			}
			if u > limit {
				return 0, erange
			}
			v := int64(u)
			if neg {
				v = -v
			}
			return uint64(v), nil
		}
		if neg {
			u = -u // strtoul negates in the unsigned type
		}
		return u, nil
	}
	switch t {
	case pcp.Type32:
		u, err := integer(64, true)
		if err != nil {
			return a, err
		}
		a.L = int32(int64(u)) // (int)strtol: truncated, as in C
	case pcp.TypeU32:
		u, err := integer(64, false)
		if err != nil {
			return a, err
		}
		a.UL = uint32(u)
	case pcp.Type64:
		u, err := integer(64, true)
		if err != nil {
			return a, err
		}
		a.LL = int64(u)
	case pcp.TypeU64:
		u, err := integer(64, false)
		if err != nil {
			return a, err
		}
		a.ULL = u
	case pcp.TypeFloat, pcp.TypeDouble:
		// strtod or strtof: errno's ERANGE is told before any text
		// left over; nothing read leaves the end at the start, so
		// only an empty text is a number (0)
		s := strings.TrimLeft(text, " \t\n\v\f\r")
		f, n, outOfRange := pcp.Strtod(s)
		if n == 0 && text != "" {
			return a, incompatible
		}
		if t == pcp.TypeFloat {
			a.F = float32(f)
			outOfRange = outOfRange || strtofRange(f, a.F)
		} else {
			a.D = f
		}
		if outOfRange {
			return pcp.Atom{}, erange
		}
		if n < len(s) {
			return pcp.Atom{}, incompatible
		}
	case pcp.TypeString:
		a.CP = text
	default:
		return a, fmt.Errorf("Error: dbpmda does not support storing into %s metrics\n", t)
	}
	return a, nil
}

// strtofRange says whether strtof sets ERANGE where strtod did not, for a
// double d read from the text and its float f: a finite number beyond
// the floats, or one below their normal range that a float does not hold
// exactly.
func strtofRange(d float64, f float32) bool {
	const minNormal = 0x1p-126
	af := math.Abs(float64(f))
	switch {
	case math.IsInf(float64(f), 0):
		return !math.IsInf(d, 0)
	case math.IsNaN(d) || d == 0:
		return false
	}
	return af < minNormal && float64(f) != d
}

// stuffValue packs a value for a RESULT as __pmStuffValue does.
func stuffValue(a pcp.Atom, t pcp.Type, inst int32) (pcp.Value, pcp.ValFmt, error) {
	return pmapi.StuffValue(a, t, inst)
}
