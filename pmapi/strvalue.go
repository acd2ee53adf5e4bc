package pmapi

import (
	"encoding/binary"
	"math"
	"strings"
	"syscall"

	"github.com/gopcp/gopcp/internal/cstrtod"
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
// magnitude is below FLT_MIN (zero included, as in PCP) and any number
// for which strtod sets ERANGE (an exact subnormal double does not; a NaN
// whose payload is beyond 64 bits does). Other types are pcp.ErrType.
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
		v, n, over := cstrtod.ParseInt(s, base)
		end = n
		if over || v > math.MaxInt32 || v < math.MinInt32 {
			erange = true
		} else {
			a.L = int32(v)
		}
	case pcp.TypeU32:
		v, n, over := cstrtod.ParseUint(s, base)
		end = n
		if over || v > math.MaxUint32 {
			erange = true
		} else {
			a.UL = uint32(v)
		}
	case pcp.Type64:
		a.LL, end, erange = cstrtod.ParseInt(s, base)
	case pcp.TypeU64:
		a.ULL, end, erange = cstrtod.ParseUint(s, base)
	case pcp.TypeFloat:
		if !hex {
			var d float64
			// strtod's ERANGE counts too: a NaN whose payload
			// overflows strtoull passes the float's range check.
			d, end, erange = pcp.Strtod(s)
			if f := math.Abs(d); f < math.SmallestNonzeroFloat32*(1<<23) || f > math.MaxFloat32 {
				erange = true
			} else {
				a.F = float32(d)
			}
		}
	case pcp.TypeDouble:
		if !hex {
			a.D, end, erange = pcp.Strtod(s)
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
