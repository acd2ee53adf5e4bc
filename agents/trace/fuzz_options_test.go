package trace

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzParseUnits reads fuzzed -U and -V arguments: units accepted fit
// a descriptor's fields (dimensions -8..7, scales of space and time
// 0..15, of count -8..7) and, written back as six integers, read the same.
// TestUnitsParseAsPCP compares the answers with PCP's.
func FuzzParseUnits(f *testing.F) {
	for _, s := range []string{"0,0,1,0,0,0", "1,-1,0,1,3,0", " 1, 0,0 ,2,0,0", "1,2,3", "a,b,c,d,e,f",
		"8,0,0,0,0,0", "0,0,0,16,0,0", "0,0,0,-1,0,0", "1,,2,3,4,5", "1,2,3,4,5,6,7", "+1,-0,0,0,0,0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := ParseUnits(s)
		if err != nil {
			if !strings.Contains(err.Error(), "parse error") { // PCP's words
				t.Fatalf("ParseUnits(%q): error %q does not say what was refused", s, err)
			}
			return
		}
		for _, d := range []int8{u.DimSpace, u.DimTime, u.DimCount, u.ScaleCount} {
			if d < -8 || d > 7 {
				t.Fatalf("ParseUnits(%q) = %+v", s, u)
			}
		}
		if u.ScaleSpace > 15 || u.ScaleTime > 15 {
			t.Fatalf("ParseUnits(%q) = %+v", s, u)
		}
		text := fmt.Sprintf("%d,%d,%d,%d,%d,%d", u.DimSpace, u.DimTime, u.DimCount, u.ScaleSpace, u.ScaleTime, u.ScaleCount)
		if again, err := ParseUnits(text); err != nil || again != u {
			t.Fatalf("ParseUnits(%q) = %+v, written back %q reads %+v, %v", s, u, text, again, err)
		}
	})
}

// FuzzParseAccess reads fuzzed -A specifications: a rule accepted names
// a host without a colon or leading blank that the specification holds,
// after an allow or disallow keyword in any case; a connection limit only
// on allow, never negative; and the same specification with the keyword
// in other ASCII case reads the same. TestAccessParseAsPCP compares the
// answers with PCP's.
func FuzzParseAccess(f *testing.F) {
	for _, s := range []string{"allow:localhost:5", "disallow:*", "ALLOW: 10.0.0.*", "allow:h:", "allow:h:-1",
		"allow:h:x", "deny:h", "allow:", "disallow: ", "allow", "Allow:h:2:3", "allow:h: 5", "allow:h:4294967297", "diſallow:h", "allow:h\x00:5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		r, err := parseAccess(spec)
		if err != nil {
			if r != (accessRule{}) {
				t.Fatalf("parseAccess(%q) refused with a rule %+v", spec, r)
			}
			return
		}
		kw, rest, _ := strings.Cut(spec, ":")
		if strings.ToLower(kw) != "allow" && strings.ToLower(kw) != "disallow" {
			t.Fatalf("parseAccess(%q) took keyword %q", spec, kw)
		}
		if r.deny != (strings.ToLower(kw) == "disallow") || (r.deny && r.maxConn != 0) || r.maxConn < 0 {
			t.Fatalf("parseAccess(%q) = %+v", spec, r)
		}
		if r.host == "" || strings.Contains(r.host, ":") || strings.TrimLeft(r.host, " \t\n\v\f\r") != r.host || !strings.Contains(rest, r.host) {
			t.Fatalf("parseAccess(%q) host %q", spec, r.host)
		}
		if again, err := parseAccess(strings.ToUpper(kw) + ":" + rest); err != nil || again != r {
			t.Fatalf("parseAccess(%q) = %+v, upper case keyword %+v, %v", spec, r, again, err)
		}
	})
}
