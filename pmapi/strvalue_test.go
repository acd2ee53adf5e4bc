package pmapi

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pcp"
)

var stringValueInputs = []string{
	"", "0", "1", "-1", "42", " 42", "42 ", "+7", "1.5", "-1.5", "0x10", "0X1f", "-0x10", "0x", "0xg",
	"2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
	"18446744073709551615", "18446744073709551616", "abc", "12abc", "1e3", "1e-3", "1e40", "1e-40",
	"1e400", "1e-400", "inf", "-inf", "nan", "3.", ".5", "1.2.3", "0.0", "  -0x7fffffff", "077", "1,2",
	"hello world", "-nan", " -NaN", "nan(123)", "NAN(0x7)", "nan(", "nan()", "-infinity", "infinit", "-0x1.8p1",
	// strtod's ERANGE where the value does not tell it: an exact
	// subnormal sets none, a NaN payload beyond strtoull's range does
	"0x1p-1074", "-0x1.8p-1070", "0x1p-1022", "4.9406564584124654e-324", "nan(99999999999999999999)",
	"-nan(0x10000000000000000)", "nan(0xffffffffffffffff)",
}

// TestStringValueMatchesLibpcp converts each input to every type and
// compares status and value with libpcp's __pmStringValue.
func TestStringValueMatchesLibpcp(t *testing.T) {
	types := []pcp.Type{pcp.Type32, pcp.TypeU32, pcp.Type64, pcp.TypeU64, pcp.TypeFloat, pcp.TypeDouble, pcp.TypeString}
	var input, ours strings.Builder
	for _, typ := range types {
		for _, s := range stringValueInputs {
			line := fmt.Sprintf("%d %s", int32(typ), s)
			input.WriteString(line + "\n")
			a, err := StringValue(s, typ)
			sts := int32(0)
			var pe pcp.Error
			if errors.As(err, &pe) {
				sts = int32(pe)
			}
			fmt.Fprintf(&ours, "%s -> %d", line, sts)
			if err == nil {
				switch typ {
				case pcp.Type32:
					fmt.Fprintf(&ours, " %d", a.L)
				case pcp.TypeU32:
					fmt.Fprintf(&ours, " %d", a.UL)
				case pcp.Type64:
					fmt.Fprintf(&ours, " %d", a.LL)
				case pcp.TypeU64:
					fmt.Fprintf(&ours, " %d", a.ULL)
				case pcp.TypeFloat:
					ours.WriteString(" " + cG(float64(a.F), 9))
				case pcp.TypeDouble:
					ours.WriteString(" " + cG(a.D, 17))
				case pcp.TypeString:
					ours.WriteString(" [" + a.CP + "]")
				}
			}
			ours.WriteString("\n")
		}
	}
	golden := filepath.Join("testdata", "golden", "stringvalue.txt")
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		out := pcptest.Run(t, input.String(), pcptest.Harness(t, "testdata/harness/stringvalue.c"))
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (UPDATE_GOLDEN=1 makes it)", err)
	}
	g, w := strings.Split(ours.String(), "\n"), strings.Split(string(want), "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			t.Errorf("line %d:\n ours %s\n pcp  %s", i+1, g[i], w[i])
		}
	}
	if len(g) != len(w) {
		t.Errorf("%d lines, libpcp %d", len(g), len(w))
	}
}

func cG(x float64, prec int) string { return pcp.FormatG(x, prec) }

func TestStuffValue(t *testing.T) {
	v, f, err := StuffValue(pcp.Atom{L: -5}, pcp.Type32, 3)
	if err != nil || f != pcp.ValInSitu || v.LVal != -5 || v.Inst != 3 {
		t.Errorf("32: %v %v %v", v, f, err)
	}
	v, f, err = StuffValue(pcp.Atom{CP: "hi"}, pcp.TypeString, pcp.InstNull)
	if err != nil || f != pcp.ValDPtr || string(v.Block.Data) != "hi\x00" {
		t.Errorf("string: %v %v %v", v, f, err)
	}
	for _, typ := range []pcp.Type{pcp.Type64, pcp.TypeU64, pcp.TypeDouble} {
		if v, _, err := StuffValue(pcp.Atom{}, typ, 0); err != nil || len(v.Block.Data) != 8 {
			t.Errorf("%v: %v %v", typ, v, err)
		}
	}
	if _, _, err := StuffValue(pcp.Atom{}, pcp.TypeEvent, 0); !errors.Is(err, pcp.ErrType) {
		t.Errorf("event: %v", err)
	}
}

func FuzzStringValue(f *testing.F) {
	for _, s := range stringValueInputs {
		f.Add(s, int32(pcp.Type32))
	}
	f.Fuzz(func(t *testing.T, s string, typ int32) {
		a, err := StringValue(s, pcp.Type(typ))
		if err != nil {
			var pe pcp.Error
			if !errors.As(err, &pe) {
				t.Fatalf("%q: error %v is not a PCP code", s, err)
			}
			return
		}
		if pcp.Type(typ) == pcp.Type32 && strconv.Itoa(int(a.L)) == "" {
			t.Fatal("unreachable")
		}
	})
}
