package pcp

import (
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

type atomStrCase struct {
	t    Type
	a    Atom
	spec string
}

// escapeLikeHarness writes bytes outside printable ASCII, and the
// backslash, as \xHH, the way the C harnesses print text.
func escapeLikeHarness(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x20 && c < 0x7f && c != '\\' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "\\x%02x", c)
		}
	}
	return b.String()
}

// testDoubles is a broad generated table: the edge values, powers of ten
// and their neighbours, values that round at the sixth decimal, and random
// bit patterns from a fixed seed.
func testDoubles() []float64 {
	ds := append([]float64(nil), edgeFloat64s...)
	for _, n := range edgeFloat64NaNs {
		ds = append(ds, math.Float64frombits(n))
	}
	for e := -324; e <= 308; e += 7 {
		p := math.Pow(10, float64(e))
		ds = append(ds, p, math.Nextafter(p, 0), math.Nextafter(p, math.Inf(1)), -p)
	}
	for _, m := range []float64{1.0000005, 1.0000015, 2.5000005, 9.9999995, 9.9999994999, 1.2345675, 0.0000015} {
		ds = append(ds, m, math.Nextafter(m, 0), math.Nextafter(m, 10))
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1500 {
		ds = append(ds, math.Float64frombits(r.Uint64()))
	}
	// Only Uint64 is used: PCG's stream is fixed, derived helpers may not be.
	for range 500 {
		u := r.Uint64()
		ds = append(ds, (float64(u>>11)/(1<<53)-0.5)*math.Pow(10, float64(int(u%40)-20)))
	}
	return ds
}

func atomStrCases() []atomStrCase {
	var cs []atomStrCase
	add := func(t Type, a Atom, spec string) { cs = append(cs, atomStrCase{t, a, spec}) }
	for _, x := range edgeInt64s {
		if x == int64(int32(x)) {
			add(Type32, Atom{L: int32(x)}, fmt.Sprint(x))
		}
		if x == int64(uint32(x)) {
			add(TypeU32, Atom{UL: uint32(x)}, fmt.Sprint(x))
		}
		add(Type64, Atom{LL: x}, fmt.Sprint(x))
		add(TypeU64, Atom{ULL: uint64(x)}, fmt.Sprint(uint64(x)))
	}
	for _, b := range edgeFloat32Bits {
		add(TypeFloat, Atom{F: math.Float32frombits(b)}, fmt.Sprintf("f%08x", b))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		b := uint32(r.Uint64())
		add(TypeFloat, Atom{F: math.Float32frombits(b)}, fmt.Sprintf("f%08x", b))
	}
	for _, d := range testDoubles() {
		add(TypeDouble, Atom{D: d}, fmt.Sprintf("d%016x", math.Float64bits(d)))
	}

	str := func(s string) { add(TypeString, Atom{CP: s}, "x:"+hex.EncodeToString([]byte(s))) }
	for n := 0; n <= 45; n++ {
		str(strings.Repeat("abcdefghij", 5)[:n])
	}
	for _, s := range []string{strings.Repeat("x", 100), "a\x00bc", "\x00", "tab\there\nnew", `back\slash "quoted"`, "\xff\xfe\x80 high", "caf\u00e9 \u2603"} {
		str(s)
	}

	block := func(t, vtype Type, data []byte) {
		add(t, Atom{VBP: &ValueBlock{Type: vtype, Data: data}}, fmt.Sprintf("vb %d x:%s", vtype, hex.EncodeToString(data)))
	}
	for _, t := range []Type{TypeAggregate, TypeAggregateStatic} {
		add(t, Atom{}, "null")
		for n := 0; n <= 17; n++ {
			data := make([]byte, n)
			for i := range data {
				data[i] = byte(0xf0 - 13*i)
			}
			block(t, t, data)
		}
		for _, vt := range []Type{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 42, 255} {
			block(t, vt, []byte{0xde, 0xad})
		}
	}
	// A nil event array is left out: pmAtomStr dereferences it.
	for _, t := range []Type{TypeEvent, TypeHighResEvent} {
		for _, n := range []int32{0, 1, 2, -1, 1000, math.MaxInt32, math.MinInt32} {
			w, _ := blockN4(uint32(n))
			block(t, t, append(w, 0, 0, 0, 0))
		}
		for n := 0; n <= 3; n++ {
			block(t, t, []byte{7, 7, 7}[:n])
		}
	}
	for _, t := range []Type{-1, 255, 11, 42, 254, -7, math.MaxInt32, math.MinInt32} {
		add(t, Atom{}, "0")
	}
	return cs
}

func TestAtomStrMatchesLibpcp(t *testing.T) {
	var input, ours strings.Builder
	for _, c := range atomStrCases() {
		line := fmt.Sprintf("%d %s", int32(c.t), c.spec)
		input.WriteString(line + "\n")
		ours.WriteString(line + " -> " + escapeLikeHarness(AtomStr(c.a, c.t)) + "\n")
	}
	checkAgainstLibpcp(t, "atomstr", input.String(), ours.String(), nil)
}

func TestAtomStr(t *testing.T) {
	// What libpcp cannot show: Go strings and blocks it never sees.
	tests := []struct {
		name string
		a    Atom
		t    Type
		want string
	}{
		{"nil event array", Atom{}, TypeEvent, "<null>"},
		{"nil aggregate", Atom{}, TypeAggregate, "<null>"},
		{"empty string", Atom{}, TypeString, `""`},
		{"string cut at NUL", Atom{CP: "ab\x00cd"}, TypeString, `"ab"`},
		{"short event array", Atom{VBP: &ValueBlock{Type: TypeEvent}}, TypeEvent, "[0 event records]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AtomStr(tt.a, tt.t); got != tt.want {
				t.Errorf("AtomStr = %q, want %q", got, tt.want)
			}
		})
	}
}
