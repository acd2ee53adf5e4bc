package cli

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/pcp"
)

// FormatValue renders one value as pmPrintValue(f, valfmt, type, v, 1)
// prints it: numbers in C's %d/%u and %.8g (float) or %.16g (double),
// strings in double quotes, aggregates (and values that cannot be
// extracted) as their bytes in hex, preceded by the readings PCP tries,
// and event arrays as a summary of their records.
func FormatValue(valfmt pcp.ValFmt, t pcp.Type, v *pcp.Value) string {
	if t != pcp.TypeUnknown && t != pcp.TypeEvent && t != pcp.TypeHighResEvent {
		a, err := pcp.ExtractValue(valfmt, v, t, t)
		if err != nil {
			t = pcp.TypeUnknown
		} else {
			switch t {
			case pcp.Type32:
				return strconv.FormatInt(int64(a.L), 10)
			case pcp.TypeU32:
				return strconv.FormatUint(uint64(a.UL), 10)
			case pcp.Type64:
				return strconv.FormatInt(a.LL, 10)
			case pcp.TypeU64:
				return strconv.FormatUint(a.ULL, 10)
			case pcp.TypeFloat:
				return CFloat(float64(a.F), 8)
			case pcp.TypeDouble:
				return CFloat(a.D, 16)
			case pcp.TypeString:
				return `"` + a.CP + `"`
			}
		}
	}
	switch t {
	case pcp.TypeEvent, pcp.TypeHighResEvent:
		if valfmt == pcp.ValInSitu {
			return fmt.Sprintf("[pmlc control value 0x%x not decoded]", uint32(v.LVal))
		}
		return eventSummary(v.Block.Data, t == pcp.TypeHighResEvent)
	}
	return rawValue(valfmt, v)
}

func rawValue(valfmt pcp.ValFmt, v *pcp.Value) string {
	if valfmt == pcp.ValInSitu {
		u := uint32(v.LVal)
		s := strconv.FormatUint(uint64(u), 10)
		if f := math.Float32frombits(u); !math.IsNaN(float64(f)) {
			s += " " + CFloat(float64(f), 8)
		}
		return s + fmt.Sprintf(" 0x%x", u)
	}
	data := v.Block.Data
	var parts []string
	if len(data) == 8 {
		parts = append(parts, strconv.FormatUint(binary.NativeEndian.Uint64(data), 10))
		if d := math.Float64frombits(binary.NativeEndian.Uint64(data)); !math.IsNaN(d) {
			parts = append(parts, CFloat(d, 16))
		}
	}
	if len(data) == 4 {
		if f := math.Float32frombits(binary.NativeEndian.Uint32(data)); !math.IsNaN(float64(f)) {
			parts = append(parts, CFloat(float64(f), 8))
		}
	}
	printable := true
	for _, c := range data {
		if c < 0x20 || c > 0x7e {
			printable = false
			break
		}
	}
	if printable {
		parts = append(parts, `"`+string(data)+`"`)
	}
	parts = append(parts, fmt.Sprintf("[%x]", data))
	return strings.Join(parts, " ")
}

// CFloat formats x as C's printf("%.*g", prec, x) does.
func CFloat(x float64, prec int) string {
	switch {
	case math.IsNaN(x):
		if math.Signbit(x) {
			return "-nan"
		}
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return strconv.FormatFloat(x, 'g', prec, 64)
}
