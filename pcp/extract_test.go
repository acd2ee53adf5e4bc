package pcp

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// checkAgainstLibpcp compares ours, our answers to input rendered the way
// testdata/harness/<name>.c renders libpcp's, with the committed
// testdata/golden/<name>.txt; and, where the harness can be built, checks
// that the golden file is still what libpcp says. UPDATE_GOLDEN=1
// regenerates the golden file from libpcp first. same decides whether a
// line of ours matches a golden line (nil: equal).
func checkAgainstLibpcp(t *testing.T, name, input, ours string, same func(ours, golden string) bool) {
	t.Helper()
	golden := filepath.Join("testdata", "golden", name+".txt")
	harness := filepath.Join("testdata", "harness", name+".c")
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		out := pcptest.Run(t, input, pcptest.Harness(t, harness))
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (UPDATE_GOLDEN=1 creates it from libpcp)", err)
	}
	diffLines(t, "gopcp (-) vs libpcp golden (+)", ours, string(want), same)
	t.Run("libpcp", func(t *testing.T) {
		live := pcptest.Run(t, input, pcptest.Harness(t, harness))
		diffLines(t, "golden (-) vs libpcp now (+)", string(want), live, nil)
	})
}

func diffLines(t *testing.T, what, got, want string, same func(a, b string) bool) {
	t.Helper()
	if same == nil {
		same = func(a, b string) bool { return a == b }
	}
	g := strings.Split(got, "\n")
	w := strings.Split(want, "\n")
	if len(g) != len(w) {
		t.Errorf("%s: %d lines vs %d", what, len(g), len(w))
	}
	bad := 0
	for i := 0; i < min(len(g), len(w)); i++ {
		if !same(g[i], w[i]) {
			if bad++; bad <= 20 {
				t.Errorf("%s, line %d:\n- %s\n+ %s", what, i+1, g[i], w[i])
			}
		}
	}
	if bad > 20 {
		t.Errorf("%s: %d differing lines in all", what, bad)
	}
}

// Every output type the harness asks for, in its order.
var extractOutTypes = []Type{-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 255}

// Every input type tried, valid or not.
var extractInTypes = []Type{-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 42, 255}

var edgeInt64s = []int64{
	0, 1, -1, 2, -2, 127, -128, 128, 255, 256, 32767, -32768, 65535, 65536,
	math.MaxInt32 - 1, math.MaxInt32, math.MaxInt32 + 1, math.MinInt32, math.MinInt32 + 1, math.MinInt32 - 1,
	math.MaxUint32 - 1, math.MaxUint32, math.MaxUint32 + 1, -math.MaxUint32, -math.MaxUint32 - 1,
	1<<53 - 1, 1 << 53, 1<<53 + 1, -(1 << 53) - 1, 1<<24 + 1, 1<<25 + 3,
	math.MaxInt64, math.MaxInt64 - 1, math.MinInt64, math.MinInt64 + 1,
	123456789012345678, -123456789012345678,
	// As unsigned: 2^63+1, 2^64-1, and values whose conversion to float
	// or double rounds on a tie or just beside one.
	-(1 << 63) + 1, -1 << 1, 0x7fffff8000000000 - 1, 0x20000010000001,
	-0x7fffff7fffffffff, -0x7ffffffffffffbff, -0x7ffffffffffffc00,
}

var edgeFloat64s = []float64{
	0, math.Copysign(0, -1), 0.1, 0.5, -0.5, 0.999, 1, -1, 1.5, -1.5, 2.5, -2.5,
	2147483646.5, 2147483647, 2147483647.5, 2147483648, 2147483648.5,
	-2147483646.5, -2147483647, -2147483647.5, -2147483648, -2147483648.5, -2147483649,
	4294967294.5, 4294967295, 4294967295.5, 4294967296, -4294967295,
	0x1p53, 0x1p53 + 2, 0x1p63 - 1024, 0x1p63, 0x1p64 - 2048, 0x1p64, 0x1p64 + 4096,
	-0x1p63, -0x1p63 - 2048, -0x1p64, 1e30, -1e30, 1e300, -1e300,
	math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 2.2250738585072014e-308,
	math.MaxFloat32, 3.5e38, 1e-46, 1.0000000596046448, 1.0000000596046450,
	math.Inf(1), math.Inf(-1),
}

// NaNs by their bits: quiet, negative, signalling, with a payload.
var edgeFloat64NaNs = []uint64{0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0x7ff4000000000123}

var edgeFloat32Bits = []uint32{
	0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3f000000, 0xbf000000, 0x40200000, 0x3dcccccd,
	0x4effffff, 0x4f000000, 0xceffffff, 0xcf000000, 0xcf000001, 0x4f7fffff, 0x4f800000, 0xcf800000,
	0x5effffff, 0x5f000000, 0xdf000000, 0xdf000001, 0x5f7fffff, 0x5f800000, 0x5f800001,
	0x7f7fffff, 0xff7fffff, 0x00000001, 0x00800000, 0x501502f9,
	0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x7fa00123,
}

type extractCase struct {
	line   string
	valfmt ValFmt
	in     Type
	v      Value
}

func newExtractCase(valfmt ValFmt, in Type, lval int32, vtype Type, data []byte, spec string) extractCase {
	c := extractCase{valfmt: valfmt, in: in}
	c.v.LVal = lval
	if valfmt != ValInSitu {
		c.v.Block = ValueBlock{Type: vtype, Data: data}
	}
	c.line = fmt.Sprintf("%d %d %d %d %s", valfmt, in, lval, vtype, spec)
	return c
}

func blockN4(u uint32) ([]byte, string) {
	b := make([]byte, 4)
	binary.NativeEndian.PutUint32(b, u)
	return b, fmt.Sprintf("n4:%08x", u)
}

func blockN8(u uint64) ([]byte, string) {
	b := make([]byte, 8)
	binary.NativeEndian.PutUint64(b, u)
	return b, fmt.Sprintf("n8:%016x", u)
}

func blockRaw(b []byte) ([]byte, string) { return b, "x:" + hex.EncodeToString(b) }

func extractCases() []extractCase {
	var cs []extractCase

	// In-situ: every input type against 32-bit integers and float bits.
	var lvals []int32
	for _, x := range edgeInt64s {
		if x == int64(int32(x)) {
			lvals = append(lvals, int32(x))
		}
	}
	for _, f := range edgeFloat32Bits {
		lvals = append(lvals, int32(f))
	}
	for _, in := range extractInTypes {
		for _, l := range lvals {
			cs = append(cs, newExtractCase(ValInSitu, in, l, 0, nil, "-"))
		}
	}

	// Value blocks holding 64-bit numbers, doubles and floats, typed as
	// their input type and as 0 (both accepted), in both pointer formats.
	var w8 []uint64
	for _, x := range edgeInt64s {
		w8 = append(w8, uint64(x))
	}
	for _, d := range edgeFloat64s {
		w8 = append(w8, math.Float64bits(d))
	}
	w8 = append(w8, edgeFloat64NaNs...)
	for _, in := range []Type{Type64, TypeU64, TypeDouble} {
		for i, u := range w8 {
			b, s := blockN8(u)
			cs = append(cs, newExtractCase(ValDPtr, in, 0, in, b, s))
			if i%4 == 0 {
				cs = append(cs, newExtractCase(ValSPtr, in, 0, 0, b, s))
			}
		}
	}
	for i, u := range edgeFloat32Bits {
		b, s := blockN4(u)
		cs = append(cs, newExtractCase(ValDPtr, TypeFloat, 0, TypeFloat, b, s))
		if i%4 == 0 {
			cs = append(cs, newExtractCase(ValSPtr, TypeFloat, 0, 0, b, s))
		}
	}

	// Strings and aggregates, including empty, NUL-less and binary data.
	blobs := [][]byte{
		{}, {0}, []byte("abc\x00"), []byte("abc"), []byte("a\x00b\x00"), []byte("\xff\xfe\n\x00"),
		[]byte(strings.Repeat("0123456789", 10) + "\x00"), {1, 2, 3, 4, 5, 6, 7, 8},
	}
	for _, in := range []Type{TypeString, TypeAggregate, TypeAggregateStatic, TypeEvent, TypeHighResEvent} {
		for _, blob := range blobs {
			b, s := blockRaw(blob)
			cs = append(cs, newExtractCase(ValDPtr, in, 0, in, b, s))
			cs = append(cs, newExtractCase(ValSPtr, in, 0, 0, b, s))
		}
	}

	// Every input type in a block of every type, so that mismatched block
	// types, wrong lengths and types that never live in blocks are seen.
	bodies := [][]byte{{}, {1, 0, 0, 0}, {1, 0, 0, 0, 0, 0, 0, 0}, {9, 8, 7, 6, 5, 4, 3, 2, 1}}
	for _, in := range extractInTypes {
		for _, vt := range []Type{0, 1, 2, 3, 4, 5, 6, 7, 9, 255} {
			for _, body := range bodies {
				b, s := blockRaw(body)
				cs = append(cs, newExtractCase(ValDPtr, in, 0, vt, b, s))
			}
		}
	}

	// Formats that do not exist.
	for _, f := range []ValFmt{-1, 3, 42} {
		for _, in := range []Type{Type32, Type64, TypeString} {
			b, s := blockN8(7)
			cs = append(cs, newExtractCase(f, in, 7, in, b, s))
		}
	}
	return cs
}

// renderExtract prints an answer as the harness prints libpcp's.
func renderExtract(line string, out Type, a Atom, err error) string {
	return renderAtom(fmt.Sprintf("%s -> %d: ", line, out), out, a, err)
}

// renderAtom prints an answer of type out, or its error, after the prefix
// p, in the form the libpcp harnesses print theirs.
func renderAtom(p string, out Type, a Atom, err error) string {
	if err != nil {
		var e Error
		if !errors.As(err, &e) {
			return p + "not a PCP error: " + err.Error()
		}
		left := "0000000000000000"
		if a != (Atom{}) {
			left = fmt.Sprintf("nonzero %+v", a)
		}
		return fmt.Sprintf("%serr %d left %s", p, e, left)
	}
	switch out {
	case Type32:
		return p + fmt.Sprint(a.L)
	case TypeU32:
		return p + fmt.Sprint(a.UL)
	case Type64:
		return p + fmt.Sprint(a.LL)
	case TypeU64:
		return p + fmt.Sprint(a.ULL)
	case TypeFloat:
		return fmt.Sprintf("%sf%08x", p, math.Float32bits(a.F))
	case TypeDouble:
		return fmt.Sprintf("%sd%016x", p, math.Float64bits(a.D))
	case TypeString:
		return p + "s:" + hexOrDash([]byte(a.CP))
	case TypeAggregate:
		return fmt.Sprintf("%svb %d %d:%s", p, a.VBP.Type, a.VBP.Len(), hexOrDash(a.VBP.Data))
	}
	return p + fmt.Sprintf("ok %+v", a)
}

func hexOrDash(b []byte) string {
	if len(b) == 0 {
		return "-"
	}
	return hex.EncodeToString(b)
}

func TestExtractValueMatchesLibpcp(t *testing.T) {
	var input, ours strings.Builder
	for _, c := range extractCases() {
		input.WriteString(c.line + "\n")
		for _, out := range extractOutTypes {
			v := c.v
			a, err := ExtractValue(c.valfmt, &v, c.in, out)
			ours.WriteString(renderExtract(c.line, out, a, err) + "\n")
		}
	}
	checkAgainstLibpcp(t, "extract", input.String(), ours.String(), nil)
}

// TestExtractValueRandomAgainstLibpcp compares with libpcp directly (no
// golden file) on value blocks drawn from a fixed seed, mostly of the right
// length so that conversions are reached.
func TestExtractValueRandomAgainstLibpcp(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	pick := func(n int) int { return int(r.Uint64() % uint64(n)) }
	var input, ours strings.Builder
	for range 5000 {
		valfmt := ValFmt(pick(3))
		in := extractInTypes[pick(len(extractInTypes))]
		vtype := in
		switch pick(4) {
		case 0:
			vtype = 0
		case 1:
			vtype = Type(pick(256))
		}
		if vtype < 0 {
			vtype = 0
		}
		n := []int{0, 1, 3, 4, 4, 4, 5, 7, 8, 8, 8, 8, 9, 12}[pick(14)]
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(r.Uint64())
		}
		c := newExtractCase(valfmt, in, int32(r.Uint64()), vtype, data, "x:"+hex.EncodeToString(data))
		if n == 0 {
			c = newExtractCase(valfmt, in, c.v.LVal, vtype, data, "-")
		}
		input.WriteString(c.line + "\n")
		for _, out := range extractOutTypes {
			v := c.v
			a, err := ExtractValue(c.valfmt, &v, c.in, out)
			ours.WriteString(renderExtract(c.line, out, a, err) + "\n")
		}
	}
	live := pcptest.Run(t, input.String(), pcptest.Harness(t, filepath.Join("testdata", "harness", "extract.c")))
	diffLines(t, "gopcp (-) vs libpcp (+)", ours.String(), live, nil)
}

func TestExtractValueErrors(t *testing.T) {
	f64 := func(d float64) Value {
		b, _ := blockN8(math.Float64bits(d))
		return Value{Block: ValueBlock{Type: TypeDouble, Data: b}}
	}
	tests := []struct {
		name    string
		valfmt  ValFmt
		v       *Value
		in, out Type
		want    error
	}{
		{"nil value", ValDPtr, nil, Type64, Type64, ErrConv},
		{"negative to unsigned", ValInSitu, &Value{LVal: -1}, Type32, TypeU64, ErrSign},
		{"too big for 32 bits", ValInSitu, &Value{LVal: -1}, TypeU32, Type32, ErrTrunc},
		{"double beyond 2^63", ValDPtr, valuePtr(f64(0x1p63)), TypeDouble, Type64, ErrTrunc},
		{"64-bit in situ", ValInSitu, &Value{LVal: 1}, Type64, Type64, ErrConv},
		{"short block", ValDPtr, &Value{Block: ValueBlock{Type: Type64, Data: []byte{1}}}, Type64, Type64, ErrConv},
		{"events", ValDPtr, &Value{Block: ValueBlock{Type: TypeEvent, Data: make([]byte, 8)}}, TypeEvent, TypeEvent, ErrConv},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := ExtractValue(tt.valfmt, tt.v, tt.in, tt.out)
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			if a != (Atom{}) {
				t.Errorf("atom %+v on error, want zero", a)
			}
		})
	}
}

func valuePtr(v Value) *Value { return &v }

func TestExtractValueAggregateIsACopy(t *testing.T) {
	v := Value{Block: ValueBlock{Type: TypeAggregate, Data: []byte{1, 2, 3}}}
	a, err := ExtractValue(ValDPtr, &v, TypeAggregate, TypeAggregate)
	if err != nil {
		t.Fatal(err)
	}
	v.Block.Data[0] = 9
	if a.VBP.Data[0] != 1 {
		t.Error("the extracted aggregate shares the value's bytes")
	}
}

func TestExtractValueNumericDoesNotAllocate(t *testing.T) {
	b, _ := blockN8(math.Float64bits(12345.75))
	v := Value{Block: ValueBlock{Type: TypeDouble, Data: b}}
	n := testing.AllocsPerRun(100, func() {
		for _, out := range extractOutTypes {
			ExtractValue(ValDPtr, &v, TypeDouble, out)
		}
		ExtractValue(ValInSitu, &Value{LVal: -3}, Type32, TypeU32)
	})
	if n != 0 {
		t.Errorf("%v allocations per run, want 0", n)
	}
}

func BenchmarkExtractValue(b *testing.B) {
	d, _ := blockN8(math.Float64bits(12345.75))
	u, _ := blockN8(1 << 40)
	cases := []struct {
		name    string
		valfmt  ValFmt
		v       Value
		in, out Type
	}{
		{"insitu32toDouble", ValInSitu, Value{LVal: 42}, Type32, TypeDouble},
		{"doubleTo64", ValDPtr, Value{Block: ValueBlock{Type: TypeDouble, Data: d}}, TypeDouble, Type64},
		{"u64toDouble", ValDPtr, Value{Block: ValueBlock{Type: TypeU64, Data: u}}, TypeU64, TypeDouble},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ExtractValue(c.valfmt, &c.v, c.in, c.out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzExtractValue feeds arbitrary value blocks, types and formats to
// ExtractValue, which must answer every one without panicking, with a zero
// Atom on error and only the conversion errors libpcp can return.
func FuzzExtractValue(f *testing.F) {
	d, _ := blockN8(math.Float64bits(-2.5))
	f.Add(int32(ValDPtr), int32(TypeDouble), int32(TypeDouble), int32(TypeU32), int32(0), d)
	f.Add(int32(ValInSitu), int32(TypeFloat), int32(0), int32(Type64), int32(0x7fc00000), []byte(nil))
	f.Add(int32(ValSPtr), int32(TypeString), int32(0), int32(TypeString), int32(0), []byte("abc\x00"))
	f.Add(int32(ValDPtr), int32(TypeAggregate), int32(TypeAggregate), int32(TypeAggregate), int32(0), []byte{1, 2})
	f.Add(int32(ValDPtr), int32(TypeEvent), int32(TypeEvent), int32(TypeEvent), int32(0), make([]byte, 16))
	f.Fuzz(func(t *testing.T, valfmt, in, vtype, out, lval int32, data []byte) {
		v := Value{LVal: lval, Block: ValueBlock{Type: Type(vtype), Data: data}}
		a, err := ExtractValue(ValFmt(valfmt), &v, Type(in), Type(out))
		if err != nil {
			if !errors.Is(err, ErrConv) && !errors.Is(err, ErrTrunc) && !errors.Is(err, ErrSign) {
				t.Fatalf("unexpected error %v", err)
			}
			if a != (Atom{}) {
				t.Fatalf("atom %+v on error", a)
			}
			return
		}
		switch Type(out) {
		case TypeString:
			if strings.IndexByte(a.CP, 0) >= 0 {
				t.Fatalf("string %q holds a NUL", a.CP)
			}
		case TypeAggregate:
			if a.VBP == nil || string(a.VBP.Data) != string(data) {
				t.Fatalf("aggregate %+v is not a copy of %x", a.VBP, data)
			}
		}
	})
}
