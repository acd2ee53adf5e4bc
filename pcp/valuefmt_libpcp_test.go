package pcp

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
)

// TestFormatValueMatchesLibpcp prints values of every type, in the value
// set and in value blocks, at several widths, and compares with
// pmPrintValue.
func TestFormatValueMatchesLibpcp(t *testing.T) {
	var input, ours strings.Builder
	add := func(line string, valfmt ValFmt, typ Type, width int, v Value) {
		input.WriteString(line + "\n")
		fmt.Fprintf(&ours, "%s -> [%s]\n", line, FormatValue(valfmt, typ, &v, width))
	}
	lvals := []uint32{0, 1, 42, 0xffffffff, 0x7fffffff, 0x80000000, 0x3fc00000, 0x7fc00000, 0x12345678}
	types := []Type{Type32, TypeU32, TypeFloat, TypeAggregate, TypeUnknown, TypeEvent, TypeHighResEvent, Type64, TypeString, TypeNoSupport, Type(42)}
	widths := []int{0, 1, 3, 8, 12, 30}
	for _, typ := range types {
		for _, w := range widths {
			for _, l := range lvals {
				add(fmt.Sprintf("I %d %d %x", int32(typ), w, l), ValInSitu, typ, w, Value{LVal: int32(l)})
			}
		}
	}
	blocks := []struct {
		vtype Type
		data  []byte
	}{
		{Type64, []byte{1, 0, 0, 0, 0, 0, 0, 0}},
		{TypeU64, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
		{TypeDouble, []byte{0, 0, 0, 0, 0, 0, 0xf8, 0x3f}},
		{TypeDouble, []byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f}},
		{TypeString, []byte("hello")},
		{TypeString, []byte("")},
		{TypeString, []byte("8 chars!")},
		{TypeAggregate, []byte{0, 1, 2, 3}},
		{TypeAggregate, []byte("abcd")},
		{TypeAggregate, []byte{0x00, 0x00, 0xc0, 0x7f}},
		{TypeAggregate, []byte{1, 2, 3}},
		{TypeFloat, []byte{0, 0, 0xc0, 0x3f}},
		{TypeEvent, []byte{0, 0, 0, 0}},
	}
	btypes := []Type{Type64, TypeU64, TypeDouble, TypeString, TypeAggregate, TypeUnknown, TypeAggregateStatic, Type32}
	for _, b := range blocks {
		hx := hex.EncodeToString(b.data)
		if hx == "" {
			hx = "-"
		}
		for _, typ := range append(btypes, b.vtype) {
			for _, w := range widths {
				add(fmt.Sprintf("D %d %d %d %s", int32(typ), w, int32(b.vtype), hx), ValDPtr, typ, w,
					Value{Block: ValueBlock{Type: b.vtype, Data: b.data}})
			}
		}
	}
	checkAgainstLibpcp(t, "printvalue", input.String(), ours.String(), nil)
}
