package series

import (
	"path"
	"strings"
	"testing"
)

// TestFnmatch checks Fnmatch against answers of glibc's fnmatch(3) with
// no flags (asked through Python's ctypes on this machine, PCP's C
// library): '*' and '?' crossing '/', escapes, brackets with ']' first,
// ranges, classes, a bad class name, an unterminated '['.
func TestFnmatch(t *testing.T) {
	for _, c := range []struct {
		pattern, s string
		want       bool
	}{
		{"*", "/var/lib/x", true},
		{"*sample*", "/var/lib/pcp/sample-labels", true},
		{"?", "/", true},
		{"?", ".", true},
		{"*.c", "a/.c", true},
		{`a\*b`, "a*b", true},
		{`a\*b`, "axb", false},
		{`ab\`, `ab\`, false},
		{`ab\`, "ab", false},
		{"[abc]", "b", true},
		{"[!abc]", "b", false},
		{"[^abc]", "d", true},
		{"[]a]", "]", true},
		{"[]a]", "a", true},
		{"[!]a]", "]", false},
		{"[a-c]", "b", true},
		{"[a-]", "-", true},
		{"[-a]", "-", true},
		{"[a-c", "[a-c", true},
		{"[a-c", "b", false},
		{"[", "[", true},
		{"a[", "a[", true},
		{"[[:digit:]]x", "5x", true},
		{"[[:alpha:]]", "5", false},
		{"[[:bogus:]]", "a", false},
		{"[[:Alpha:]]", "A", false},
		{"[[:Alpha:]]", ":", false},
		{`[\]]`, "]", true},
		{`[a\-z]`, "-", true},
		{`[a\-z]`, "b", false},
		{"*[", "ab[", true},
		{"sample.*", "sample.colour", true},
		{"sample.c*r", "sample.colour", true},
		{"*.*.*", "a.b.c", true},
		{"**a", "a", true},
		{"*?*", "", false},
	} {
		if got := Fnmatch(c.pattern, c.s); got != c.want {
			t.Errorf("Fnmatch(%q, %q) = %v, glibc says %v", c.pattern, c.s, got, c.want)
		}
	}
}

// FuzzFnmatch: any pattern and string end in an answer, which for
// patterns of letters, '*' and '?' over ASCII strings without '/' is
// path.Match's (fnmatch in the C locale, as PCP's tools run, reads bytes
// where path.Match reads runes).
func FuzzFnmatch(f *testing.F) {
	for _, s := range [][2]string{{"sample.*", "sample.colour"}, {"[a-", "b"}, {`\`, "x"}, {"[[:alpha:]", "a"}, {"*a*b*c", "aabbcc"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, s string) {
		if len(pattern) > 256 || len(s) > 256 {
			return
		}
		got := Fnmatch(pattern, s)
		if strings.ContainsAny(pattern, `[]\/`) || strings.Contains(s, "/") || !ascii(pattern+s) {
			return
		}
		if want, err := path.Match(pattern, s); err == nil && got != want {
			t.Errorf("Fnmatch(%q, %q) = %v, path.Match says %v", pattern, s, got, want)
		}
	})
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
