package pcp

import (
	"encoding/binary"
	"io"
	"math"
	"strconv"
	"strings"
)

// FormatValue renders one value of a metric of type t as pmPrintValue
// prints it with the given minimum width: integers as C's %*d/%*u, floats
// as %*.8g and doubles as %*.16g, strings in double quotes padded on the
// left, event arrays as a summary of their records, and aggregates, or
// values that cannot be extracted as t, as every reading PCP tries of
// their bytes followed by the bytes in hex. A width given by a user
// belongs to WriteValue, which does not hold the padding in memory.
func FormatValue(valfmt ValFmt, t Type, v *Value, minwidth int) string {
	var b strings.Builder
	WriteValue(&b, valfmt, t, v, minwidth)
	return b.String()
}

// WriteValue writes what FormatValue returns to w, the padding in pieces
// as it goes: pmval -w 99999999999 pads each value to 1.2 GB (C's int
// of the number), which PCP's printf streams and a string would hold
// whole. It returns w's first error.
func WriteValue(w io.Writer, valfmt ValFmt, t Type, v *Value, minwidth int) error {
	o := valueOut{w: w}
	var a Atom
	if t != TypeUnknown && t != TypeEvent && t != TypeHighResEvent {
		var err error
		if a, err = ExtractValue(valfmt, v, t, t); err != nil {
			t = TypeUnknown
		}
	}
	switch t {
	case Type32:
		o.padLeft(strconv.FormatInt(int64(a.L), 10), minwidth)
	case TypeU32:
		o.padLeft(strconv.FormatUint(uint64(a.UL), 10), minwidth)
	case Type64:
		o.padLeft(strconv.FormatInt(a.LL, 10), minwidth)
	case TypeU64:
		o.padLeft(strconv.FormatUint(a.ULL, 10), minwidth)
	case TypeFloat:
		o.padLeft(FormatG(float64(a.F), 8), minwidth)
	case TypeDouble:
		o.padLeft(FormatG(a.D, 16), minwidth)
	case TypeString:
		o.pad(minwidth - len(a.CP) - 2)
		o.str(`"`)
		o.str(a.CP)
		o.str(`"`)
	case TypeAggregate, TypeUnknown:
		rawValue(&o, valfmt, v, minwidth)
	case TypeEvent, TypeHighResEvent:
		if valfmt == ValInSitu {
			o.str(pmlcControl(uint32(v.LVal)))
		} else {
			o.str(EventSummary(v.Block.Data, t == TypeHighResEvent))
		}
	case TypeNoSupport:
		o.str("pmPrintValue: bogus value, metric Not Supported\n")
	default:
		o.str("pmPrintValue: unknown value type=" + strconv.Itoa(int(int32(t))) + "\n")
	}
	return o.err
}

// valueOut is WriteValue's writer: the first error stops it.
type valueOut struct {
	w   io.Writer
	err error
}

func (o *valueOut) str(s string) {
	if o.err == nil {
		_, o.err = io.WriteString(o.w, s)
	}
}

// pad writes n spaces (none for n <= 0), a bounded piece at a time.
func (o *valueOut) pad(n int) {
	const spaces = "                                                                "
	for n > 0 && o.err == nil {
		k := min(n, len(spaces))
		o.str(spaces[:k])
		n -= k
	}
}

// padLeft is s right-aligned in width, as C's %*s.
func (o *valueOut) padLeft(s string, width int) {
	o.pad(width - len(s))
	o.str(s)
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

// rawValue is every reading pmPrintValue tries of a value it cannot
// extract: as an integer and a float for a value in the value set, as a
// 64-bit integer, a double, a float and a string for a value block of the
// fitting size, then the block's bytes in hex.
func rawValue(o *valueOut, valfmt ValFmt, v *Value, minwidth int) {
	if valfmt == ValInSitu {
		u := uint32(v.LVal)
		o.padLeft(strconv.FormatUint(uint64(u), 10), minwidth)
		if f := math.Float32frombits(u); !math.IsNaN(float64(f)) {
			o.str(" ")
			o.padLeft(FormatG(float64(f), 8), minwidth)
		}
		w := minwidth
		if w > 2 {
			w -= 2
		}
		o.str(" 0x")
		o.padLeft(strconv.FormatUint(uint64(u), 16), w)
		return
	}
	data := v.Block.Data
	done := false
	sep := func() {
		if done {
			o.str(" ")
		}
		done = true
	}
	if len(data) == 8 {
		u := binary.NativeEndian.Uint64(data)
		sep()
		o.padLeft(strconv.FormatUint(u, 10), minwidth)
		if d := math.Float64frombits(u); !math.IsNaN(d) {
			sep()
			o.padLeft(FormatG(d, 16), minwidth)
		}
	}
	if len(data) == 4 {
		if f := math.Float32frombits(binary.NativeEndian.Uint32(data)); !math.IsNaN(float64(f)) {
			sep()
			o.padLeft(FormatG(float64(f), 8), minwidth)
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
		o.pad(minwidth - len(data) - 2)
		o.str(`"`)
		o.str(string(data))
		o.str(`"`)
	}
	o.pad(minwidth - (2*len(data) + 2))
	if done {
		o.str(" ")
	}
	o.str("[")
	const hex = "0123456789abcdef"
	digits := make([]byte, 0, 2*len(data)+1) // as long as the value itself
	for _, c := range data {
		digits = append(digits, hex[c>>4], hex[c&15])
	}
	o.str(string(append(digits, ']')))
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
