package pcp

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

type convCase struct {
	t       Type
	in, out Units
	a       Atom
	val     string
}

func (c convCase) line() string {
	u := func(x Units) string {
		return fmt.Sprintf("%d %d %d %d %d %d", x.DimSpace, x.DimTime, x.DimCount, x.ScaleSpace, x.ScaleTime, x.ScaleCount)
	}
	return fmt.Sprintf("%d %s %s %s", c.t, u(c.in), u(c.out), c.val)
}

// convValues are the test values of each numeric type as atoms with the
// harness's spelling of each.
func convValues(t Type, few bool) []convCase {
	var cs []convCase
	add := func(a Atom, val string) { cs = append(cs, convCase{t: t, a: a, val: val}) }
	ints := []int64{0, 1, -1, 2, -2, 3, 7, -7, 511, 512, 513, -511, -512, -513, 999, 1000, 1001, -1000,
		1023, 1024, 1025, 1535, 1536, 1537, -1535, -1536, -1537, 500, 499, 12345678, 1 << 30,
		math.MaxInt32, math.MaxInt32 - 1, math.MinInt32, math.MinInt32 + 1, math.MaxUint32,
		1 << 40, 1<<53 + 1, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1000, 999999999999,
		-123456789012345678}
	if few {
		ints = []int64{1, -1536, 1000000007, math.MaxInt32}
	}
	switch t {
	case Type32:
		for _, x := range ints {
			if x == int64(int32(x)) {
				add(Atom{L: int32(x)}, fmt.Sprint(x))
			}
		}
	case TypeU32:
		for _, x := range ints {
			if x == int64(uint32(x)) {
				add(Atom{UL: uint32(x)}, fmt.Sprint(x))
			}
		}
	case Type64:
		for _, x := range ints {
			add(Atom{LL: x}, fmt.Sprint(x))
		}
	case TypeU64:
		for _, x := range ints {
			add(Atom{ULL: uint64(x)}, fmt.Sprint(uint64(x)))
		}
	case TypeFloat:
		bits := edgeFloat32Bits
		if few {
			bits = []uint32{0x3f800000, 0xc4c00000, 0x4e6e6b28, 0x7f7fffff}
		}
		for _, b := range bits {
			add(Atom{F: math.Float32frombits(b)}, fmt.Sprintf("f%08x", b))
		}
	case TypeDouble:
		ds := edgeFloat64s
		if few {
			ds = []float64{1, -1536, 1000000007, math.MaxFloat64}
		}
		for _, d := range ds {
			add(Atom{D: d}, fmt.Sprintf("d%016x", math.Float64bits(d)))
		}
		if !few {
			for _, n := range edgeFloat64NaNs {
				add(Atom{D: math.Float64frombits(n)}, fmt.Sprintf("d%016x", n))
			}
		}
	default:
		add(Atom{}, "-")
	}
	return cs
}

var numericTypes = []Type{Type32, TypeU32, Type64, TypeU64, TypeFloat, TypeDouble}

func convCases() []convCase {
	var cs []convCase
	pair := func(in, out Units, types []Type, few bool) {
		for _, t := range types {
			for _, c := range convValues(t, few) {
				c.in, c.out = in, out
				cs = append(cs, c)
			}
		}
	}
	space := func(dim int8, s uint8) Units { return Units{DimSpace: dim, ScaleSpace: s} }
	time := func(dim int8, s uint8) Units { return Units{DimTime: dim, ScaleTime: s} }
	count := func(dim int8, s int8) Units { return Units{DimCount: dim, ScaleCount: s} }

	// Every pair of scales of each dimension, valid or not, both ways up.
	spaceScales := []uint8{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15}
	timeScales := []uint8{0, 1, 2, 3, 4, 5, 6, 15}
	for _, dim := range []int8{1, -1} {
		types := append(numericTypes, TypeString)
		if dim < 0 {
			types = []Type{Type64, TypeDouble, TypeString}
		}
		for _, i := range spaceScales {
			for _, o := range spaceScales {
				pair(space(dim, i), space(dim, o), types, true)
			}
		}
		for _, i := range timeScales {
			for _, o := range timeScales {
				pair(time(dim, i), time(dim, o), types, true)
			}
		}
		for i := int8(-8); i <= 7; i++ {
			for o := int8(-8); o <= 7; o++ {
				pair(count(dim, i), count(dim, o), types, true)
			}
		}
	}

	// Every power of each dimension, for scale pairs near and far apart,
	// which makes the 64-bit factors overflow (and even wrap to zero).
	for dim := int8(-8); dim <= 7; dim++ {
		for _, s := range [][2]uint8{{0, 6}, {6, 0}, {0, 1}, {1, 0}, {2, 3}, {3, 2}, {0, 0}} {
			pair(space(dim, s[0]), space(dim, s[1]), numericTypes, true)
		}
		for _, s := range [][2]uint8{{0, 5}, {5, 0}, {0, 3}, {3, 0}, {4, 5}, {1, 2}} {
			pair(time(dim, s[0]), time(dim, s[1]), numericTypes, true)
		}
		for _, s := range [][2]int8{{-8, 7}, {7, -8}, {0, 3}, {3, 0}, {-1, 1}} {
			pair(count(dim, s[0]), count(dim, s[1]), numericTypes, true)
		}
	}

	// Compound dimensions, each with a few scale pairs.
	dims := []int8{-1, 0, 1, 2}
	scales := [][6]int8{{0, 1, 0, 1, 3, 0}, {2, 3, -3, 0, 0, 3}, {1, 4, 2, 6, 0, -1}, {6, 0, 7, 0, 5, -8}, {3, 2, 1, 3, 2, 1}, {0, 5, 0, 9, 3, 0}}
	for _, ds := range dims {
		for _, dt := range dims {
			for _, dc := range dims {
				for _, s := range scales {
					in := Units{DimSpace: ds, DimTime: dt, DimCount: dc, ScaleSpace: uint8(s[0]), ScaleTime: uint8(s[1]), ScaleCount: s[2]}
					out := Units{DimSpace: ds, DimTime: dt, DimCount: dc, ScaleSpace: uint8(s[3]), ScaleTime: uint8(s[4]), ScaleCount: s[5]}
					pair(in, out, []Type{Type64, TypeDouble}, true)
				}
			}
		}
	}

	// Dimensionless units, which count as counts, against each other and
	// against counts; and dimensions that do not match.
	for i := int8(-8); i <= 7; i++ {
		for o := int8(-8); o <= 7; o++ {
			pair(count(0, i), count(0, o), []Type{Type64}, true)
		}
		pair(count(0, i), count(1, 0), []Type{TypeDouble}, true)
		pair(count(1, 0), count(0, i), []Type{TypeU32}, true)
	}
	mismatched := [][2]Units{
		{space(1, 0), time(1, 0)}, {space(1, 0), count(1, 0)}, {space(1, 0), space(-1, 0)},
		{count(0, 0), space(1, 0)}, {Units{DimSpace: 1, DimTime: -1}, Units{DimSpace: 1, DimCount: -1}},
		{space(1, 15), time(1, 15)}, {count(2, 0), count(1, 0)},
	}
	for _, m := range mismatched {
		pair(m[0], m[1], append(numericTypes, TypeString), true)
	}

	// The full value table through a few conversions.
	full := [][2]Units{
		{space(1, 0), space(1, 0)}, {space(1, 0), space(1, 1)}, {space(1, 1), space(1, 0)},
		{space(1, 0), space(1, 2)}, {space(1, 6), space(1, 0)}, {time(1, 2), time(1, 3)},
		{time(1, 3), time(1, 2)}, {time(1, 1), time(1, 5)}, {time(1, 5), time(1, 0)},
		{count(1, -3), count(1, 3)}, {time(-1, 2), time(-1, 3)},
		{Units{DimSpace: 1, DimTime: -1, ScaleSpace: 0, ScaleTime: 3}, Units{DimSpace: 1, DimTime: -1, ScaleSpace: 1, ScaleTime: 5}},
		{count(2, 1), count(2, 0)},
	}
	for _, f := range full {
		pair(f[0], f[1], numericTypes, false)
	}

	// Types that cannot be scaled, with good and bad units.
	for _, t := range []Type{-1, TypeString, TypeAggregate, TypeAggregateStatic, TypeEvent, TypeHighResEvent, 11, 255} {
		for _, u := range [][2]Units{{space(1, 0), space(1, 1)}, {space(1, 7), space(1, 1)}, {time(1, 0), count(1, 0)}, {count(1, 0), count(1, 0)}} {
			pair(u[0], u[1], []Type{t}, true)
		}
	}
	return cs
}

func renderConv(c convCase, a Atom, err error) string {
	return renderAtom(c.line()+" -> ", c.t, a, err)
}

func TestConvScaleMatchesLibpcp(t *testing.T) {
	var input, ours strings.Builder
	for _, c := range convCases() {
		input.WriteString(c.line() + "\n")
		a, err := ConvScale(c.t, c.a, c.in, c.out)
		ours.WriteString(renderConv(c, a, err) + "\n")
	}
	// Where libpcp dies dividing by zero, ConvScale answers ErrConv.
	same := func(ours, golden string) bool {
		if g, ok := strings.CutSuffix(golden, " -> SIGFPE"); ok {
			return ours == fmt.Sprintf("%s -> err %d left 0000000000000000", g, ErrConv)
		}
		return ours == golden
	}
	checkAgainstLibpcp(t, "convscale", input.String(), ours.String(), same)
}

func TestConvScaleUnitsAreFourBitFields(t *testing.T) {
	// DimSpace 17 is 1 and ScaleSpace 17 is 1 in a packed pmUnits.
	wide := Units{DimSpace: 17, ScaleSpace: 17}
	narrow := Units{DimSpace: 1, ScaleSpace: SpaceKByte}
	bytes := Units{DimSpace: 1, ScaleSpace: SpaceByte}
	got, err := ConvScale(Type64, Atom{LL: 3}, wide, bytes)
	want, err2 := ConvScale(Type64, Atom{LL: 3}, narrow, bytes)
	if err != nil || err2 != nil || got != want {
		t.Errorf("got %+v, %v; want %+v, %v", got, err, want, err2)
	}
}

func TestConvScaleDoesNotAllocate(t *testing.T) {
	in := Units{DimSpace: 1, DimTime: -1, ScaleSpace: SpaceByte, ScaleTime: TimeSec}
	out := Units{DimSpace: 1, DimTime: -1, ScaleSpace: SpaceKByte, ScaleTime: TimeMin}
	n := testing.AllocsPerRun(100, func() {
		for _, t := range numericTypes {
			ConvScale(t, Atom{LL: 12345}, in, out)
		}
		ConvScale(TypeString, Atom{}, in, out)
	})
	if n != 0 {
		t.Errorf("%v allocations per run, want 0", n)
	}
}

func BenchmarkConvScale(b *testing.B) {
	in := Units{DimSpace: 1, DimTime: -1, ScaleSpace: SpaceByte, ScaleTime: TimeSec}
	out := Units{DimSpace: 1, DimTime: -1, ScaleSpace: SpaceKByte, ScaleTime: TimeMin}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ConvScale(TypeU64, Atom{ULL: 1 << 40}, in, out); err != nil {
			b.Fatal(err)
		}
	}
}
