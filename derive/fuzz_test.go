package derive

import (
	"strings"
	"testing"
)

// FuzzParse checks that no input makes the parser panic, that errors
// point inside the expression, and that a parsed tree prints as an
// expression that parses back to the same tree.
func FuzzParse(f *testing.F) {
	for _, file := range []string{"testdata/syntax.txt", "testdata/cases.txt"} {
		for _, l := range readLines(f, file) {
			f.Add(strings.TrimPrefix(l, "!"))
		}
	}
	f.Fuzz(func(t *testing.T, expr string) {
		n, err := Parse("fuzz.m", expr)
		if err != nil {
			se, ok := err.(*SyntaxError)
			if !ok {
				t.Fatalf("%q: error %T is not a *SyntaxError", expr, err)
			}
			if se.Pos < -1 || se.Pos > len(se.Expr) {
				t.Fatalf("%q: position %d outside the expression", expr, se.Pos)
			}
			_ = se.Error()
			return
		}
		text := n.String()
		again, err := Parse("fuzz.m", text)
		if err != nil {
			t.Fatalf("%q prints as %q, which does not parse: %v", expr, text, err)
		}
		if got := again.String(); got != text {
			t.Fatalf("%q prints as %q, then as %q", expr, text, got)
		}
	})
}
