package pmda

import (
	"encoding/json"
	"errors"
	"math"
	"net/netip"
	"testing"
)

// rawJSON is a label value with its own JSON, spaced out to be compacted.
type rawJSON string

func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(r), nil }

type namedString string

// textKey is a map key of integer kind with MarshalText, which json
// writes by its text, not its number.
type textKey int

func (k textKey) MarshalText() ([]byte, error) { return []byte("k" + string(rune('0'+k))), nil }

// textName is a map key of string kind with MarshalText, which json
// writes by its string.
type textName string

func (k textName) MarshalText() ([]byte, error) { return []byte("text-" + k), nil }

type namedFloat32 float32

// TestAppendLabelJSONMatchesMarshal: label values are written exactly as
// encoding/json's Marshal writes them.
func TestAppendLabelJSONMatchesMarshal(t *testing.T) {
	var nilRaw *rawPtr
	values := []any{
		nil, true, false,
		0, -1, int8(-128), int16(300), int32(math.MinInt32), int64(math.MaxInt64),
		uint(7), uint8(255), uint16(65535), uint32(math.MaxUint32), uint64(math.MaxUint64), uintptr(9),
		0.0, 1.5, -2.25, 1e-6, 1e-7, 123456789e12, 1e21, 1e20, 5e-324, math.MaxFloat64, -0.0, 100.0,
		float32(0.1), float32(1e-7), float32(3.4e38), float32(1e21), namedFloat32(2.5),
		"", "plain", `quote " and \ backslash`, "<a href=x>&amp;</a>", "tab\tnl\ncr\rbs\bff\f",
		"\x00\x01\x1f\x7f", "caf\u00e9 \u2028 \u2029 \U0001F600", "bad \xff utf8 \xc3", "é",
		namedString("named <string>"),
		rawJSON(` { "a" : [1, 2, "<x>"] } `), rawJSON(`"raw"`), rawJSON(`12`),
		netip.MustParseAddr("192.0.2.1"), // a TextMarshaler
		nilRaw, &str, nilStr,
		[]string{"block", "memory"}, []string{}, []string(nil), [2]int{1, 2}, [][]string{{"a"}, nil},
		[]any{1, "a", nil, true, 2.5}, []rawJSON{`1`, ` "x" `}, []textByPtr{{"p"}},
		[]byte("bytes <>"), []byte(nil), []namedByte{1, 2},
		map[string]any{"b": 1, "a": []string{"x"}, "<": nil}, map[int]string{10: "ten", 9: "nine", -1: "m"},
		map[uint8]bool{2: true}, map[string]int(nil),
		map[textKey]int{1: 2, 3: 4}, map[textName]int{"a": 1}, map[netip.Addr]int{netip.MustParseAddr("192.0.2.1"): 1},
	}
	for _, v := range values {
		want, werr := json.Marshal(v)
		got, gerr := appendLabelJSON(nil, v)
		if (werr != nil) != (gerr != nil) || string(got) != string(want) {
			t.Errorf("%T %#v: got %s (%v), json.Marshal %s (%v)", v, v, got, gerr, want, werr)
		}
	}
}

var str, nilStr = "pointed <to>", (*string)(nil)

// textByPtr writes itself as text through its address only.
type textByPtr struct{ s string }

func (t *textByPtr) MarshalText() ([]byte, error) { return []byte("text:" + t.s), nil }

type namedByte byte

type rawPtr struct{}

func (*rawPtr) MarshalJSON() ([]byte, error) { return []byte(`"ptr"`), nil }

// TestAppendLabelJSONRefuses: values json.Marshal refuses, and kinds
// labels do not hold, are errors.
func TestAppendLabelJSONRefuses(t *testing.T) {
	for _, v := range []any{
		math.NaN(), math.Inf(1), float32(math.Inf(-1)), rawJSON(`{bad`), rawJSON(``),
		struct{ A int }{1}, []float64{math.NaN()}, map[float64]int{1: 1}, make(chan int), func() {},
	} {
		if got, err := appendLabelJSON(nil, v); err == nil {
			t.Errorf("%T %v: got %s, want an error", v, v, got)
		}
	}
	if _, err := appendLabelJSON(nil, struct{}{}); !errors.Is(err, errLabelValue) {
		t.Errorf("a struct: %v, want errLabelValue", err)
	}
	deep := any("x")
	for range maxLabelDepth + 2 {
		deep = []any{deep}
	}
	if _, err := appendLabelJSON(nil, deep); !errors.Is(err, errLabelValue) {
		t.Errorf("lists %d deep: %v, want errLabelValue", maxLabelDepth+2, err)
	}
}

// FuzzAppendLabelJSON: strings and floats are written as json.Marshal
// writes them, whatever the bytes.
func FuzzAppendLabelJSON(f *testing.F) {
	f.Add("plain", 1.5)
	f.Add("<&>\u2028\xff\x00", 1e21)
	f.Add("", 1e-7)
	f.Fuzz(func(t *testing.T, s string, x float64) {
		for _, v := range []any{s, x, float32(x), rawJSON(s)} {
			want, werr := json.Marshal(v)
			got, gerr := appendLabelJSON(nil, v)
			if (werr != nil) != (gerr != nil) || string(got) != string(want) {
				t.Fatalf("%T %q: got %s (%v), json.Marshal %s (%v)", v, v, got, gerr, want, werr)
			}
		}
	})
}
