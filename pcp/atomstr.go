package pcp

import (
	"encoding/binary"
	"strconv"
	"strings"
)

// AtomStr returns the text pmAtomStr gives for a value of type t: integers
// in decimal, floats and doubles as C's "%e", strings quoted (those of 38
// bytes or more cut to their first 34 and "..."), aggregates as their type,
// length and first 12 bytes in hex, event arrays as their record count, and
// an error text for types that hold no value.
//
// Like C, a string ends at its first NUL byte. A nil value block prints as
// "<null>" (libpcp crashes on a nil event array), and an event array too
// short to hold its record count counts the missing bytes as zero.
func AtomStr(a Atom, t Type) string {
	switch t {
	case Type32:
		return strconv.FormatInt(int64(a.L), 10)
	case TypeU32:
		return strconv.FormatUint(uint64(a.UL), 10)
	case Type64:
		return strconv.FormatInt(a.LL, 10)
	case TypeU64:
		return strconv.FormatUint(a.ULL, 10)
	case TypeFloat:
		return formatE(float64(a.F))
	case TypeDouble:
		return formatE(a.D)
	case TypeString:
		return quoteAtomString(a.CP)
	case TypeAggregate, TypeAggregateStatic:
		return aggregateStr(a.VBP)
	case TypeEvent, TypeHighResEvent:
		return eventArrayStr(a.VBP)
	case TypeNoSupport:
		return "Error: unexpected type: Not Supported"
	case TypeUnknown:
		return "Error: unexpected type: Unknown"
	}
	return "Error: unexpected type: Illegal type=" + strconv.Itoa(int(t))
}

// formatE is C's "%e".
func formatE(d float64) string { return FormatFloat(d, 'e', 6) }

func quoteAtomString(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	if len(s) < 38 {
		return `"` + s + `"`
	}
	return `"` + s[:34] + `..."`
}

func aggregateStr(vb *ValueBlock) string {
	if vb == nil {
		return "<null>"
	}
	const hexdigits = "0123456789abcdef"
	b := make([]byte, 0, 80)
	b = append(b, "[type="...)
	b = append(b, vb.Type.String()...)
	b = append(b, " len="...)
	b = strconv.AppendInt(b, int64(len(vb.Data)), 10)
	b = append(b, ']')
	// The bytes shown are grouped in fours, each group led by a space.
	for i, c := range vb.Data[:min(len(vb.Data), 12)] {
		if i%4 == 0 {
			b = append(b, ' ')
		}
		b = append(b, hexdigits[c>>4], hexdigits[c&0xf])
	}
	if len(vb.Data) > 12 {
		b = append(b, " ..."...)
	}
	return string(b)
}

func eventArrayStr(vb *ValueBlock) string {
	if vb == nil {
		return "<null>"
	}
	// The record count is the first word after the block header.
	var word [4]byte
	copy(word[:], vb.Data)
	n := int32(binary.NativeEndian.Uint32(word[:]))
	if n == 1 {
		return "[1 event record]"
	}
	return "[" + strconv.Itoa(int(n)) + " event records]"
}
