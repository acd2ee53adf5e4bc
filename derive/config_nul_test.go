package derive

import (
	"runtime"
	"strings"
	"testing"
)

// TestConfigNUL: a NUL byte ends the part of a configuration line libpcp
// reads it in. The warnings and definitions are PCP 6.0.3's pminfo -c on
// the same files (cmd/pminfo's TestDerivedNULAgainstPCP compares the
// tools on more placements).
func TestConfigNUL(t *testing.T) {
	for _, tc := range []struct {
		name, text, warn, defs string
	}{
		{"expression tail", "n.a = 1 + 2\x00garbage ) (\n", "", "n.a=1 + 2"},
		{"name tail", "n.b\x00xx = 3\n", "", "n.b=3"},
		{"name space", "n.l \x00= 12\n", "[f:1] Error: pmLoadDerivedConfig: illegal derived metric name (n.l )\n", ""},
		{"line start", "\x00n.c = 4\n", "[f:1] Error: pmLoadDerivedConfig: derived metric name missing\n\n", ""},
		{"expression start", "n.d = \x005\n", "[f:1] Error: pmLoadDerivedConfig: expression missing\nn.d = \n", ""},
		{"syntax", "n.f = 1 +\x00 2\n", "[f:1] Error: pmRegisterDerived(n.f, ...) syntax error\n 1 +\n   ^\nArithmetic expression expected to follow PLUS\n", ""},
		{"attribute", "n.j = 10\nn.j( oneline \x00x) = text\n", "[f:2] Error: pmLoadDerivedConfig: attribute (oneline ) is unknown for metric (n.j)\nn.j( oneline \n", "n.j=10"},
		{"plain value", "n.i = 9\nn.i(oneline) = one\x00line\n", "", "n.i=9 [one]"},
		{"quoted value", "n.g = 7\nn.g(oneline) = \"one\x00line\nstill\" \nn.h = 8\n", "", "n.g=7 [one\nstill] n.h=8"},
		{"quoted next line", "n.g = 7\nn.g(helptext) = \"one\nt\x00wo\"\nn.h = 8\n", "", "n.g=7 {one\nt} n.h=8"},
		{"unterminated", "n.g = 7\nn.g(oneline) = \"one\x00line\"\nn.h = 8\n", "[f:3] Error: pmLoadDerivedConfig: missing termination (\") for value\n", "n.g=7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var warn strings.Builder
			reg := NewRegistry()
			reg.Warn = func(m string) { warn.WriteString(m) }
			reg.loadConfig("f", tc.text)
			var defs []string
			for _, d := range reg.Defs() {
				if d.Anon {
					continue
				}
				s := d.Name + "=" + d.Expr
				if d.Oneline != "" {
					s += " [" + d.Oneline + "]"
				}
				if d.Help != "" {
					s += " {" + d.Help + "}"
				}
				defs = append(defs, s)
			}
			if got := strings.Join(defs, " "); warn.String() != tc.warn || got != tc.defs {
				t.Errorf("%q:\nwarned %q\nwant   %q\ndefined %q\nwant    %q", tc.text, warn.String(), tc.warn, got, tc.defs)
			}
		})
	}
}

// TestConfigNULQuotedLinear: a file of quoted values each cut by a NUL is
// read in memory proportional to its size (each value copies only the
// lines it spans, not the rest of the file).
func TestConfigNULQuotedLinear(t *testing.T) {
	text := "n.a = 1\n" + strings.Repeat("n.a(oneline) = \"x\x00y\"\n", 20000)
	reg := NewRegistry()
	reg.Warn = func(string) {}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	reg.loadConfig("f", text)
	runtime.ReadMemStats(&after)
	got := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes read, %d allocated", len(text), got)
	if got > 64*uint64(len(text)) {
		t.Errorf("reading %d bytes allocated %d", len(text), got)
	}
}
