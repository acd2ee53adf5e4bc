package webid

import (
	"encoding/json"
	"strconv"
	"testing"
)

// FuzzQuote checks that either quoting gives text its reader takes back:
// unicode_encode's is always valid JSON keeping every ASCII byte, and
// sdscatrepr's escapes are C's, which Go's unquoting reads exactly.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "a b", "q\"b\\s\n", "\x00\x7f\xff", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u := AppendUnicode(nil, s)
		var back string
		if err := json.Unmarshal(u, &back); err != nil {
			t.Fatalf("AppendUnicode(%q) = %s: not JSON: %v", s, u, err)
		}
		want := []rune{}
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 {
				want = append(want, '\uFFFD')
			} else {
				want = append(want, rune(s[i]))
			}
		}
		if back != string(want) {
			t.Fatalf("AppendUnicode(%q) read back as %q", s, back)
		}
		r := AppendRepr(nil, s)
		if got, err := strconv.Unquote(string(r)); err != nil || got != s {
			t.Fatalf("AppendRepr(%q) = %s, read back as %q, %v", s, r, got, err)
		}
	})
}
