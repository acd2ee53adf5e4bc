package pcp

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"testing"
)

// TestFloat64MatchesExtract checks Float64 against ExtractValue's
// conversion to TypeDouble (itself checked against libpcp's
// pmExtractValue), for values of every numeric type at their edges.
func TestFloat64MatchesExtract(t *testing.T) {
	block := func(typ Type, b []byte) *Value { return &Value{Block: ValueBlock{Type: typ, Data: b}} }
	u64 := func(v uint64) []byte { return binary.NativeEndian.AppendUint64(nil, v) }
	cases := []struct {
		typ    Type
		a      Atom
		valfmt ValFmt
		v      *Value
	}{
		{Type32, Atom{L: math.MinInt32}, ValInSitu, &Value{LVal: math.MinInt32}},
		{Type32, Atom{L: -1}, ValInSitu, &Value{LVal: -1}},
		{TypeU32, Atom{UL: math.MaxUint32}, ValInSitu, &Value{LVal: -1}},
		{Type64, Atom{LL: math.MinInt64}, ValDPtr, block(Type64, u64(1<<63))},
		{Type64, Atom{LL: 1<<53 + 1}, ValDPtr, block(Type64, u64(1<<53+1))},
		{TypeU64, Atom{ULL: math.MaxUint64}, ValDPtr, block(TypeU64, u64(math.MaxUint64))},
		{TypeFloat, Atom{F: -1.5e-7}, ValDPtr, block(TypeFloat, binary.NativeEndian.AppendUint32(nil, math.Float32bits(-1.5e-7)))},
		{TypeFloat, Atom{F: float32(math.Inf(1))}, ValDPtr, block(TypeFloat, binary.NativeEndian.AppendUint32(nil, math.Float32bits(float32(math.Inf(1)))))},
		{TypeDouble, Atom{D: math.SmallestNonzeroFloat64}, ValDPtr, block(TypeDouble, u64(math.Float64bits(math.SmallestNonzeroFloat64)))},
	}
	for _, c := range cases {
		want, err := ExtractValue(c.valfmt, c.v, c.typ, TypeDouble)
		if err != nil {
			t.Fatalf("%v %+v: ExtractValue: %v", c.typ, c.a, err)
		}
		got, err := Float64(c.typ, c.a)
		if err != nil || math.Float64bits(got) != math.Float64bits(want.D) {
			t.Errorf("Float64(%v, %+v) = %v, %v; ExtractValue gives %v", c.typ, c.a, got, err, want.D)
		}
	}
}

// TestFloat64NotANumber checks that the types which are not numbers are
// refused as pmExtractValue refuses them.
func TestFloat64NotANumber(t *testing.T) {
	for _, typ := range []Type{TypeString, TypeAggregate, TypeAggregateStatic, TypeEvent, TypeHighResEvent, TypeUnknown, TypeNoSupport} {
		if v, err := Float64(typ, Atom{CP: "1", D: 1}); !errors.Is(err, ErrConv) || v != 0 {
			t.Errorf("Float64(%v) = %v, %v; want 0, ErrConv", typ, v, err)
		}
	}
}

func ExampleFloat64() {
	for _, v := range []struct {
		t Type
		a Atom
	}{
		{Type32, Atom{L: -3}},
		{TypeU64, Atom{ULL: 1 << 63}},
		{TypeFloat, Atom{F: 0.25}},
		{TypeString, Atom{CP: "42"}},
	} {
		x, err := Float64(v.t, v.a)
		fmt.Println(v.t, x, err)
	}
	// Output:
	// 32 -3 <nil>
	// U64 9.223372036854776e+18 <nil>
	// FLOAT 0.25 <nil>
	// STRING 0 Impossible value or scale conversion
}
