package main

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/getopt"
	"github.com/gopcp/gopcp/pcp"
)

// FuzzStoreValue reads fuzzed store values for every type dbpmda stores.
// The signed integers are checked against C's strtol (getopt.CStrtol):
// taken when it reads the whole text, refused with ERANGE when it
// overflows, the 32-bit value strtol's long cut to an int as dbpmda's
// (int) cast cuts it. Unsigned ones and doubles taken print back to
// what reads the same; a string is the text itself; every refusal is
// one of dbpmda's two messages.
func FuzzStoreValue(f *testing.F) {
	for _, s := range []string{"0", "42", "-1", " +7", "1 ", "", "+", "0x10", "9223372036854775808", "-9223372036854775808",
		"18446744073709551615", "18446744073709551616", "-5", "1.5", "1e400", "nan", "inf", "4294967296", "３"} {
		for sel := range uint8(7) {
			f.Add(s, sel)
		}
	}
	types := []pcp.Type{pcp.Type32, pcp.TypeU32, pcp.Type64, pcp.TypeU64, pcp.TypeFloat, pcp.TypeDouble, pcp.TypeString}
	f.Fuzz(func(t *testing.T, text string, sel uint8) {
		typ := types[int(sel)%len(types)]
		a, err := parseValue(text, typ)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "Error: Value \"") && !strings.HasPrefix(msg, "Error: Decoding value: ") {
				t.Fatalf("parseValue(%q, %s): %q", text, typ, msg)
			}
		}
		switch typ {
		case pcp.Type32, pcp.Type64:
			n, end, over := getopt.CStrtol(text, 10)
			whole := end == len(text) || (end == 0 && text == "")
			switch {
			case !whole:
				if err == nil {
					t.Fatalf("parseValue(%q, %s) took what strtol leaves %q of", text, typ, text[end:])
				}
			case over:
				if err == nil || !strings.Contains(err.Error(), "Decoding value") {
					t.Fatalf("parseValue(%q, %s) = %v, %v; strtol overflows", text, typ, a, err)
				}
			case err != nil:
				t.Fatalf("parseValue(%q, %s) refused what strtol reads whole: %v", text, typ, err)
			case typ == pcp.Type32 && a.L != int32(n), typ == pcp.Type64 && a.LL != n:
				t.Fatalf("parseValue(%q, %s) = %+v, strtol %d", text, typ, a, n)
			}
		case pcp.TypeU32, pcp.TypeU64:
			if err == nil {
				v := uint64(a.UL)
				if typ == pcp.TypeU64 {
					v = a.ULL
				}
				if back, err := parseValue(strconv.FormatUint(v, 10), typ); err != nil || back != a {
					t.Fatalf("parseValue(%q, %s) = %+v, printed back %+v %v", text, typ, a, back, err)
				}
			}
		case pcp.TypeDouble:
			if err == nil && !math.IsNaN(a.D) {
				if back, err := parseValue(strconv.FormatFloat(a.D, 'g', -1, 64), typ); err != nil || back != a {
					t.Fatalf("parseValue(%q, %s) = %+v, printed back %+v %v", text, typ, a, back, err)
				}
			}
		case pcp.TypeString:
			if err != nil || a.CP != text {
				t.Fatalf("parseValue(%q, string) = %q, %v", text, a.CP, err)
			}
		}
	})
}
