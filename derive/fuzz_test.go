package derive

import (
	"os"
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

// FuzzConfig loads arbitrary configuration files: no panic, and every
// metric registered can be found again.
func FuzzConfig(f *testing.F) {
	for _, file := range []string{"testdata/config.conf", "defaults/cpu.conf", "defaults/iostat.conf"} {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("n.a\x00 = 1\nn.a(one\x00line) = 2\nn.a(oneline) = \"x\x00y\nz\" \nn.b = 3\x00+\n")
	f.Fuzz(func(t *testing.T, text string) {
		reg := NewRegistry()
		n := reg.loadConfig("fuzz.conf", text)
		if got := len(reg.Defs()) - 2; got != n {
			t.Fatalf("%d metrics registered, %d reported", got, n)
		}
	})
}

// FuzzERE compiles arbitrary patterns: no panic, and a pattern accepted
// compiles to a regexp Go can run.
func FuzzERE(f *testing.F) {
	for _, c := range regexCases {
		f.Add(c[0])
	}
	f.Fuzz(func(t *testing.T, pat string) {
		re, err := compileERE(pat)
		if err == nil && re == nil {
			t.Fatalf("%q: no regexp and no error", pat)
		}
		if err != nil {
			if _, ok := err.(ereError); !ok {
				t.Fatalf("%q: error %T is not glibc's kind", pat, err)
			}
		}
	})
}
