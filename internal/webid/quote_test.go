package webid

import "testing"

// The rules of libpcp_web's unicode_encode (util.c) and sds's sdscatrepr,
// byte class by byte class; whole answers are compared with PCP's pmproxy
// and pmseries in webapi's and series' tests.
func TestQuote(t *testing.T) {
	cases := []struct {
		in, unicode, repr string
	}{
		{"", `""`, `""`},
		{"a b", `"a b"`, `"a b"`},
		{`q"b\s`, `"q\u0022b\u005Cs"`, `"q\"b\\s"`},
		{"\n\r\t\a\b", `"\u000A\u000D\u0009\u0007\u0008"`, `"\n\r\t\a\b"`},
		{"\x01\x1f\x7f", `"\u0001\u001F\u007F"`, `"\x01\x1f\x7f"`},
		{"é", `"\uFFFD\uFFFD"`, `"\xc3\xa9"`},
		{"~!/{}", `"~!/{}"`, `"~!/{}"`},
	}
	for _, c := range cases {
		if got := string(AppendUnicode(nil, c.in)); got != c.unicode {
			t.Errorf("AppendUnicode(%q) = %s, want %s", c.in, got, c.unicode)
		}
		if got := string(AppendUnicode([]byte("x"), []byte(c.in))); got != "x"+c.unicode {
			t.Errorf("AppendUnicode(x, []byte %q) = %s, want x%s", c.in, got, c.unicode)
		}
		if got := string(AppendRepr([]byte("x"), c.in)); got != "x"+c.repr {
			t.Errorf("AppendRepr(x, %q) = %s, want x%s", c.in, got, c.repr)
		}
	}
}
