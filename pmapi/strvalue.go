package pmapi

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strings"
	"syscall"

	"github.com/gopcp/gopcp/internal/getopt"
	"github.com/gopcp/gopcp/pcp"
)

// errRange is -ERANGE, what libpcp returns for a number that does not fit.
var errRange = pcp.Error(-int32(syscall.ERANGE))

// StringValue converts text to a value of type t as libpcp's
// __pmStringValue does for pmstore and pmval -x: integers in decimal, or
// hexadecimal after "0x", with C's strtol family (so leading blanks and
// a sign are allowed), floating-point numbers with strtod, strings as
// they are. Text that is not entirely a number of the type is
// pcp.ErrType; a number that does not fit is -ERANGE, as is a float whose
// magnitude is below FLT_MIN (zero included, as in PCP). Other types are
// pcp.ErrType.
func StringValue(s string, t pcp.Type) (pcp.Atom, error) {
	var a pcp.Atom
	hex := looksHex(s)
	base := 10
	if hex {
		base = 16
	}
	end := 0 // bytes the conversion took; all of s must be taken
	erange := false
	switch t {
	case pcp.Type32:
		v, n, over := cStrtoll(s, base)
		end = n
		if over || v > math.MaxInt32 || v < math.MinInt32 {
			erange = true
		} else {
			a.L = int32(v)
		}
	case pcp.TypeU32:
		v, n, over := cStrtoull(s, base)
		end = n
		if over || v > math.MaxUint32 {
			erange = true
		} else {
			a.UL = uint32(v)
		}
	case pcp.Type64:
		var over bool
		a.LL, end, over = cStrtoll(s, base)
		erange = over
	case pcp.TypeU64:
		var over bool
		a.ULL, end, over = cStrtoull(s, base)
		erange = over
	case pcp.TypeFloat:
		if !hex {
			d, n := strtodPrefix(skipSpace(s))
			end = n + (len(s) - len(skipSpace(s)))
			if n == 0 {
				end = 0
			}
			if f := math.Abs(d); f < math.SmallestNonzeroFloat32*(1<<23) || f > math.MaxFloat32 {
				erange = true
			} else {
				a.F = float32(d)
			}
		}
	case pcp.TypeDouble:
		if !hex {
			d, n := strtodPrefix(skipSpace(s))
			if n > 0 {
				end = n + (len(s) - len(skipSpace(s)))
			}
			a.D = d
			erange = strtodRange(s, d)
		}
	case pcp.TypeString:
		a.CP = s
		end = len(s)
	default:
		return a, pcp.ErrType
	}
	if end < len(s) {
		return pcp.Atom{}, pcp.ErrType
	}
	if erange {
		return pcp.Atom{}, errRange
	}
	return a, nil
}

// looksHex is __pmStringValue's test for hexadecimal text: optional
// blanks and minus sign, "0x", then only hex digits.
func looksHex(s string) bool {
	p := skipSpace(s)
	p = strings.TrimPrefix(p, "-")
	if len(p) < 2 || p[0] != '0' || (p[1]|0x20) != 'x' {
		return false
	}
	for _, c := range []byte(p[2:]) {
		if !isHexDigit(c) {
			return false
		}
	}
	return true
}

func isHexDigit(c byte) bool {
	return (c >= '0' && c <= '9') || ((c|0x20) >= 'a' && (c|0x20) <= 'f')
}

func skipSpace(s string) string {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return s[i:]
}

// cStrtoull is C's strtoull: blanks, a sign (a minus negates modulo 2^64),
// an optional 0x for base 16, digits. It returns the value, the bytes
// taken (0 when there are no digits) and whether the magnitude overflowed.
func cStrtoull(s string, base int) (uint64, int, bool) {
	i := len(s) - len(skipSpace(s))
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	if base == 16 && i+2 < len(s)+1 && i+1 < len(s) && s[i] == '0' && (s[i+1]|0x20) == 'x' && i+2 < len(s) && isHexDigit(s[i+2]) {
		i += 2
	}
	start := i
	var v uint64
	over := false
	for i < len(s) {
		c := s[i]
		var d uint64
		switch {
		case c >= '0' && c <= '9':
			d = uint64(c - '0')
		case base == 16 && isHexDigit(c):
			d = uint64(c|0x20-'a') + 10
		default:
			goto done
		}
		hi, lo := bits.Mul64(v, uint64(base))
		lo, carry := bits.Add64(lo, d, 0)
		if hi != 0 || carry != 0 {
			over = true
		}
		v = lo
		i++
	}
done:
	if i == start {
		return 0, 0, false
	}
	if over {
		return math.MaxUint64, i, true
	}
	if neg {
		v = -v
	}
	return v, i, false
}

// cStrtoll is C's strtoll (a long is 64 bits): getopt.CStrtol, the
// value saturated at the int64 range and overflow reported.
func cStrtoll(s string, base int) (int64, int, bool) {
	return getopt.CStrtol(s, base)
}

// StuffValue puts a value of type t into a pcp.Value as libpcp's
// __pmStuffValue does, returning the value format: 32-bit integers in
// place, everything else in a value block in host byte order (strings
// with their terminating NUL).
func StuffValue(a pcp.Atom, t pcp.Type, inst int32) (pcp.Value, pcp.ValFmt, error) {
	v := pcp.Value{Inst: inst}
	var data []byte
	switch t {
	case pcp.Type32:
		v.LVal = a.L
		return v, pcp.ValInSitu, nil
	case pcp.TypeU32:
		v.LVal = int32(a.UL)
		return v, pcp.ValInSitu, nil
	case pcp.TypeFloat:
		data = binary.NativeEndian.AppendUint32(nil, math.Float32bits(a.F))
	case pcp.Type64:
		data = binary.NativeEndian.AppendUint64(nil, uint64(a.LL))
	case pcp.TypeU64:
		data = binary.NativeEndian.AppendUint64(nil, a.ULL)
	case pcp.TypeDouble:
		data = binary.NativeEndian.AppendUint64(nil, math.Float64bits(a.D))
	case pcp.TypeString:
		data = append([]byte(a.CP), 0)
	default:
		return v, 0, pcp.ErrType
	}
	v.Block = pcp.ValueBlock{Type: t, Data: data}
	return v, pcp.ValDPtr, nil
}

// strtodRange reports whether strtod sets ERANGE for text s read as d:
// a finite number too large (infinity) or too small (below DBL_MIN but
// not zero, or zero from nonzero digits).
func strtodRange(s string, d float64) bool {
	low := strings.ToLower(s)
	switch {
	case math.IsInf(d, 0):
		return !strings.Contains(low, "inf")
	case d != 0:
		return math.Abs(d) < 0x1p-1022
	}
	mant, _, _ := strings.Cut(low, "e")
	return strings.ContainsAny(mant, "123456789")
}
