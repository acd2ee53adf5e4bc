package pcp

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"
)

// FormatValue renders one value of a metric of type t as pmPrintValue
// prints it with the given minimum width: integers as C's %*d/%*u, floats
// as %*.8g and doubles as %*.16g, strings in double quotes padded on the
// left, event arrays as a summary of their records, and aggregates, or
// values that cannot be extracted as t, as every reading PCP tries of
// their bytes followed by the bytes in hex.
func FormatValue(valfmt ValFmt, t Type, v *Value, minwidth int) string {
	var a Atom
	if t != TypeUnknown && t != TypeEvent && t != TypeHighResEvent {
		var err error
		if a, err = ExtractValue(valfmt, v, t, t); err != nil {
			t = TypeUnknown
		}
	}
	switch t {
	case Type32:
		return padLeft(strconv.FormatInt(int64(a.L), 10), minwidth)
	case TypeU32:
		return padLeft(strconv.FormatUint(uint64(a.UL), 10), minwidth)
	case Type64:
		return padLeft(strconv.FormatInt(a.LL, 10), minwidth)
	case TypeU64:
		return padLeft(strconv.FormatUint(a.ULL, 10), minwidth)
	case TypeFloat:
		return padLeft(FormatG(float64(a.F), 8), minwidth)
	case TypeDouble:
		return padLeft(FormatG(a.D, 16), minwidth)
	case TypeString:
		return padLeft(`"`+a.CP+`"`, minwidth)
	case TypeAggregate, TypeUnknown:
		return rawValue(valfmt, v, minwidth)
	case TypeEvent, TypeHighResEvent:
		if valfmt == ValInSitu {
			return pmlcControl(uint32(v.LVal))
		}
		return EventSummary(v.Block.Data, t == TypeHighResEvent)
	case TypeNoSupport:
		return "pmPrintValue: bogus value, metric Not Supported\n"
	}
	return "pmPrintValue: unknown value type=" + strconv.Itoa(int(int32(t))) + "\n"
}

// pmlcControl is how PCP prints the logging state pmlogger keeps in place
// of an event array's value.
func pmlcControl(v uint32) string {
	var b strings.Builder
	b.WriteString("[pmlc control ")
	if v&2 != 0 {
		b.WriteString("mand ")
	} else {
		b.WriteString("adv ")
	}
	if v&1 != 0 {
		b.WriteString("on ")
	} else {
		b.WriteString("off ")
	}
	switch {
	case v&8 == 0:
		b.WriteString("nl ")
	case v&4 != 0:
		b.WriteString(" ")
	default:
		b.WriteString("na ")
	}
	b.WriteString(strconv.FormatUint(uint64((v>>4)&0x0fffffff), 10))
	b.WriteByte(']')
	return b.String()
}

func padLeft(s string, width int) string {
	if len(s) >= width {
		return s
	}
	return strings.Repeat(" ", width-len(s)) + s
}

// rawValue is every reading pmPrintValue tries of a value it cannot
// extract: as an integer and a float for a value in the value set, as a
// 64-bit integer, a double, a float and a string for a value block of the
// fitting size, then the block's bytes in hex.
func rawValue(valfmt ValFmt, v *Value, minwidth int) string {
	if valfmt == ValInSitu {
		u := uint32(v.LVal)
		s := padLeft(strconv.FormatUint(uint64(u), 10), minwidth)
		if f := math.Float32frombits(u); !math.IsNaN(float64(f)) {
			s += " " + padLeft(FormatG(float64(f), 8), minwidth)
		}
		w := minwidth
		if w > 2 {
			w -= 2
		}
		return s + " 0x" + padLeft(strconv.FormatUint(uint64(u), 16), w)
	}
	data := v.Block.Data
	var b strings.Builder
	done := false
	sep := func() {
		if done {
			b.WriteByte(' ')
		}
		done = true
	}
	if len(data) == 8 {
		u := binary.NativeEndian.Uint64(data)
		sep()
		b.WriteString(padLeft(strconv.FormatUint(u, 10), minwidth))
		if d := math.Float64frombits(u); !math.IsNaN(d) {
			sep()
			b.WriteString(padLeft(FormatG(d, 16), minwidth))
		}
	}
	if len(data) == 4 {
		if f := math.Float32frombits(binary.NativeEndian.Uint32(data)); !math.IsNaN(float64(f)) {
			sep()
			b.WriteString(padLeft(FormatG(float64(f), 8), minwidth))
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
		sep()
		b.WriteString(padLeft(`"`+string(data)+`"`, minwidth))
	}
	for n := 2*len(data) + 2; n < minwidth; n++ {
		b.WriteByte(' ')
	}
	if done {
		b.WriteByte(' ')
	}
	b.WriteByte('[')
	const hex = "0123456789abcdef"
	for _, c := range data {
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	b.WriteByte(']')
	return b.String()
}

// FormatG formats x as C's printf("%.*g", prec, x) does, nan and inf
// included.
func FormatG(x float64, prec int) string { return FormatFloat(x, 'g', prec) }

// FormatFloat formats x as C's printf does with the conversion verb ('e',
// 'f' or 'g') and precision prec: Go's strconv.FormatFloat but for the
// spelling of infinities and NaNs ("inf", "-inf", "nan", "-nan": a NaN's
// sign included).
func FormatFloat(x float64, verb byte, prec int) string {
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
	return strconv.FormatFloat(x, verb, prec, 64)
}
