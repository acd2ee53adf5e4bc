package derive

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// regexCases pairs POSIX extended patterns (as matchinst() receives
// them, after the scanner's backslash processing) with instance names.
var regexCases = [][2]string{
	{`bin-[1-3]00`, "bin-200"}, {`bin-[1-3]00`, "bin-400"}, {`^bin`, "xbin"}, {`00$`, "bin-100"},
	{`^(lo)|(vbir)`, "lo"}, {`^(lo)|(vbir)`, "eth0"}, {`^(lo)|(vbir)`, "vbir0"}, {`^(lo)|(vbir)`, "xlo"},
	{`some\*text/other\[text]`, "some*text/other[text]"}, {`some\*text/other\[text]`, "someetext/other[text]"},
	{`[\]`, `a\b`}, {`[\]`, `ab`}, {`[\n]`, "n"}, {`[]a]`, "]"}, {`[^]a]`, "b"}, {`[^]a]`, "]"},
	{`a)`, "a)"}, {`a)`, "a"}, {`a**`, "aaa"}, {`a**`, ""}, {`(ab)+?`, "abab"}, {`a{,2}`, "b"},
	{`a{2}`, "aa"}, {`a{2}`, "ab"}, {`a{1,3}b`, "aab"}, {`x|`, "y"}, {`()`, "z"},
	{`[[:digit:]]+`, "cpu12"}, {`[[:alpha:]]`, "123"}, {`[[:space:]]`, "a b"}, {`[[:upper:]]`, "abc"},
	{`[[.a.]]`, "a"}, {`[[=b=]]`, "b"}, {`\w+`, "abc"}, {`\<cpu`, "the cpu"}, {`cpu\>`, "cpus"},
	{`\.`, "a.b"}, {`\.`, "ab"}, {`a.c`, "abc"}, {`\(`, "("}, {`\{`, "{"}, {`a\|b`, "a|b"},
	{`.*`, ""}, {`^$`, ""}, {`$^`, ""}, {`[a-]`, "-"}, {`[-a]`, "-"}, {`[a-c-e]`, "d"}, {`[a-cd-f]`, "e"}, {`[a-c-]`, "-"}, {`[--/]`, "."},
	{`(a|ab)(c|bcd)(d*)`, "abcd"}, {`é`, "café"}, {`caf.`, "café"},
	{`a{2,1}`, "a"}, {`*a`, "a"}, {`a|*b`, "b"}, {`(*a)`, "a"}, {`[z-a]`, "a"}, {`[[:nope:]]`, "a"},
	{`a{`, "a{"}, {`a{1`, "a"}, {`a{x}`, "a{x}"}, {`(`, "("}, {`[`, "["}, {`\`, `\`},
}

// TestRegexAgainstGlibc compiles and matches each pattern as glibc's
// regcomp and regexec do for libpcp and compares the verdicts.
func TestRegexAgainstGlibc(t *testing.T) {
	bin := pcptest.Harness(t, "testdata/harness/regex.c")
	var in strings.Builder
	for _, c := range regexCases {
		in.WriteString(c[0] + "\t" + c[1] + "\n")
	}
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(want) != len(regexCases) {
		t.Fatalf("%d answers for %d cases", len(want), len(regexCases))
	}
	for i, c := range regexCases {
		got := "0"
		re, err := compileERE(c[0])
		switch {
		case err != nil:
			got = "error: " + err.Error()
		case re.MatchString(c[1]):
			got = "1"
		}
		if got != want[i] {
			t.Errorf("/%s/ on %q: got %s, glibc %s", c[0], c[1], got, want[i])
		}
	}
}
