package main

import (
	"slices"
	"strings"
	"testing"
)

func TestGetopt(t *testing.T) {
	cases := []struct {
		args     []string
		opts     string // each option and its argument, as "c=arg;"
		bad      string
		operands []string
	}{
		{[]string{"-qv3", "t"}, "q=;v=3;", "", []string{"t"}},
		{[]string{"-v", "-3", "t"}, "v=-3;", "", []string{"t"}},
		{[]string{"t", "-q", "u"}, "q=;", "", []string{"t", "u"}},
		{[]string{"--", "-q"}, "", "", []string{"-q"}},
		{[]string{"-", "-q"}, "q=;", "", []string{"-"}},
		{[]string{"-xq"}, "q=;", "invalid option -- 'x';", nil},
		{[]string{"--help"}, "h=elp;", "invalid option -- '-';", nil},
		{[]string{"-c"}, "", "option requires an argument -- 'c';", nil},
		{[]string{"-:"}, "", "invalid option -- ':';", nil},
		{[]string{"-?"}, "?=;", "", nil},
	}
	for _, c := range cases {
		var opts, bad strings.Builder
		got := getopt(c.args, "c:e:h:qS:v:?", func(o byte, arg string) {
			opts.WriteString(string(o) + "=" + arg + ";")
		}, func(msg string) { bad.WriteString(msg + ";") })
		if opts.String() != c.opts || bad.String() != c.bad || !slices.Equal(got, c.operands) {
			t.Errorf("getopt %q: options %q, mistakes %q, operands %q; want %q, %q, %q",
				c.args, opts.String(), bad.String(), got, c.opts, c.bad, c.operands)
		}
	}
}

// FuzzGetopt: any words are walked to the end, every word is an operand,
// an option, an option's argument or a mistake, and nothing panics.
func FuzzGetopt(f *testing.F) {
	f.Add("-qv3\x00t\x00--\x00-x")
	f.Add("-c")
	f.Fuzz(func(t *testing.T, s string) {
		args := strings.Split(s, "\x00")
		n := 0
		ops := getopt(args, "c:e:h:qS:v:", func(byte, string) { n++ }, func(string) { n++ })
		if len(ops) > len(args) {
			t.Fatalf("%d operands from %d words", len(ops), len(args))
		}
	})
}

func TestStrtol(t *testing.T) {
	cases := []struct {
		s   string
		n   int64
		end int
	}{
		{"", 0, 0}, {" ", 0, 0}, {"-", 0, 0}, {"x", 0, 0},
		{"5", 5, 1}, {" +5", 5, 3}, {"-1", -1, 2}, {"5 ", 5, 1},
		{"010", 8, 3}, {"08", 0, 1}, {"0x", 0, 1}, {"0xg", 0, 1}, {"0x1F", 31, 4},
		{"0b1", 0, 1}, {"1_0", 1, 1},
		{"9223372036854775807", 1<<63 - 1, 19}, {"9223372036854775808", 1<<63 - 1, 19},
		{"-9223372036854775808", -1 << 63, 20}, {"-99999999999999999999", -1 << 63, 21},
	}
	for _, c := range cases {
		if n, end := strtol(c.s); n != c.n || end != c.end {
			t.Errorf("strtol(%q) = %d, %d; want %d, %d", c.s, n, end, c.n, c.end)
		}
	}
}
