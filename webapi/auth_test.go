package webapi

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestBasicAuthOK(t *testing.T) {
	b := func(s string) string { return "Basic " + base64.StdEncoding.EncodeToString([]byte(s)) }
	for _, c := range []struct {
		values []string
		ok     bool
	}{
		{nil, true},
		{[]string{b("u:p")}, true},
		{[]string{b(":")}, true},
		{[]string{b("user:")}, true},
		{[]string{b("nocolon")}, false},
		{[]string{b("a\x00:b")}, false},  // the colon is past a NUL
		{[]string{"Basic "}, false},      // empty: no colon
		{[]string{"Basic !!"}, false},    // a length pmproxy refuses
		{[]string{"Basic !!!!"}, false},  // decoded, to zeros
		{[]string{"Basic  dTpw"}, false}, // five characters
		{[]string{"Basic Og=="}, true},   // ":" with padding
		{[]string{"Basic ==Og"}, false},  // '=' first: garbage, then stop
		{[]string{"basic !!"}, true},     // another scheme: ignored
		{[]string{"Bearer x"}, true},
		{[]string{b("u:p"), "Basic !!"}, false},
	} {
		if got := basicAuthOK(c.values); got != c.ok {
			t.Errorf("basicAuthOK(%q) = %v, want %v", c.values, got, c.ok)
		}
	}
}

// FuzzBasicAuth: any header value is answered without panic, and
// standard base64 of text with a colon before any NUL always passes.
func FuzzBasicAuth(f *testing.F) {
	for _, s := range []string{"u:p", "", "nocolon", "a\x00:b", ":"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		basicAuthOK([]string{"Basic " + s})
		enc := base64.StdEncoding.EncodeToString([]byte(s))
		i, nul := strings.IndexByte(s, ':'), strings.IndexByte(s, 0)
		want := i >= 0 && (nul < 0 || i < nul)
		if got := basicAuthOK([]string{"Basic " + enc}); got != want {
			t.Errorf("%q encoded: %v, want %v", s, got, want)
		}
	})
}
