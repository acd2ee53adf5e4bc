package pcp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// parseUnitsEscape writes s for the parseunits harness, one line per
// string, with the backslash escapes it undoes.
func parseUnitsEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\v':
			b.WriteString(`\v`)
		case c == '\f':
			b.WriteString(`\f`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < ' ' || c > '~':
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// cFloat prints f as C's printf("%.17g") does, NaN (of either sign) as
// "nan" since the harness prints it so.
func cFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return fmt.Sprintf("%.17g", f)
}

// renderParseUnits answers one string as the parseunits harness prints
// libpcp's answer.
func renderParseUnits(s string) string {
	u, m, err := ParseUnits(s)
	var pe *ParseUnitsError
	switch {
	case errors.As(err, &pe) && pe.Msg == "time scale out of range":
		return "abort"
	case err != nil:
		return fmt.Sprintf("err\t%d\t%s", pe.Err.Code(), pe.Msg)
	}
	return fmt.Sprintf("ok\t%s\t%s\t%s", unitsHarnessLine(u), cFloat(m), u)
}

// parseUnitsGrammarCases are strings built from the grammar: every word
// alone and in other cases, powers, numbers in every form strtod takes,
// combinations across the "/", and the ways to get each wrong.
func parseUnitsGrammarCases() []string {
	var in []string
	add := func(s ...string) { in = append(in, s...) }
	for _, ws := range [][]unitsWord{unitsTimeWords, unitsSpaceWords, unitsCountWords} {
		for _, w := range ws {
			add(w.word, strings.ToUpper(w.word), "/ "+strings.ToLower(w.word))
		}
	}
	// Every power on one word of each axis, and scale-changing quotients
	// whose multipliers are the powers libpcp computes with pow.
	for _, p := range unitsPowerWords {
		add("sec"+p.word, "Kbyte"+p.word, "count x 10^3"+p.word, "count x 10"+p.word,
			"/ hour"+p.word, "x"+p.word, "sec "+p.word)
	}
	for _, w := range []string{"ns", "us", "ms", "s", "min", "h"} {
		for _, p := range unitsPowerWords {
			add(w + p.word + " / sec" + p.word)
		}
	}
	for _, w := range unitsCountWords {
		for _, p := range unitsPowerWords {
			add(w.word + p.word + " / count" + p.word)
		}
	}
	for _, w := range []string{"byte", "KB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB", "space-9", "space-15"} {
		for _, p := range []string{"^-8", "^-1", "^0", "", "^2", "^7", "^8", "^15"} {
			add(w + p + " / Kbyte" + p)
		}
	}
	add(
		// The manual page's examples and their kin.
		"2 count", "count / 7.5 nanosecond", "10 kilobytes / 2.5e2 count x 10^3",
		"millisecond / second^2", "mib/s", "ms kb count x 10^3", "count x 10^3 kb ms",
		"Mbytes/hour", "kbyte / count", "byte * sec", "Kbyte / sec", "byte^2 / millisec",
		"count x 10^6", "x 10^-3", "x 10", "/", "//", "", " ", "\t", "byte/", "/byte",
		"byte / byte", "Kbyte / byte", "byte^2 / Kbyte", "sec / millisec", "hour / min",
		"count x 10^6 / count x 10^3", "count / count x 10^-8", "KB / MB / GB",
		// Duplicates, powers that do not parse, odd spacing.
		"sec sec", "sec^0 min", "sec^0 sec^0", "byte byte", "count counts", "byte^",
		"byte^16", "byte^-9", "byte ^2", "byte^+2", "byte^2^3", "byte^2.5", "byte^02",
		"count  x 10", "count x  10", "COUNT X 10^6", "count x 10^8", "count x 10^-9",
		"count x 10^1", "count x 10^0", "count x 100", "counts^2", "byte2", "bytesec",
		"byte\tsec", "byte\nsec", "byte\vsec", "byte\fsec", "byte\rsec", " byte ", "byte\x00sec",
		"\xe2\x84\xaabyte", "Kbyte\xa0", "space-16", "time-16", "space-01", "Byte", "BYTES",
		"kIbIbYtEs", "Kelvinbyte", "b", "B", "m", "M", "kb/S", "mS", "Hr", "nanoSECONDS",
		// Dimensions beyond a 4-bit field, on each axis and both sides.
		"byte^8", "/ byte^9", "byte^7 / byte^-1", "sec^15 / sec^7", "sec^15 / sec^8",
		"count^-8 / count", "count^7 / count^-1", "/ count^8", "/ count^-8", "byte^-8 / byte^-8",
		// Scales libpcp cannot compute with (it aborts) and those it can.
		"time-6", "time-7^0", "time-6 / sec", "sec / time-15", "time-15 / time-15",
		"time-9 / byte", "byte / time-9", "time-0 / time-1", "time-5^0", "time-1^-8",
		"space-15^15 / space-15^15", "space-15^15 / byte^15", "byte^15 / space-15^15",
		"space-15^-8 / space-15^-8", "time-7 / time-7", "time-9 / ms", "time-6^2 / time-6^2",
		// Numbers as strtod takes them.
		"2", "2 3 byte", "2byte", "2.5e3count", "-2 byte", ".5 KB", "-.5 KB", "1.5e-3/ms",
		"5-3 byte", "1.2.3 byte", "1. byte", "01 byte", "007 byte", "1e3 byte", "1E+3 byte",
		"1e-3 byte", "1e byte", "1e+ byte", "1e- byte", "1ee3 byte", "- 5", "-", ".", "-.",
		"-.e3", ".e3", "+5 byte", "-+5 byte", "--5 byte", "1,5 byte", "1_000 byte",
		"0x10 byte", "0X1P4 byte", "0x1p-3 byte", "0x.8", "0x1.8p1", "0x byte", "0xg", "0x.",
		"0x1p byte", "0x1p+ byte", "0x1.", "-0x10", "0b101 byte", "1 / 2", "4 / 0.5 byte",
		"0 byte", "-0 byte", "0 / 0", "1 / 0", "0 / 1", "-0", "1/-0",
		"-inf", "-inf byte", "-INF / -Infinity", "-infinity", "-infinit", "-infx",
		"-nan byte", "-NaN", "-nan()", "-nan(0x123) byte", "-nan(12)", "-nan(abc_1)",
		"-nan(", "-nan(1", "-nan(1 2)", "-nan(0x)", "-nan(08)", "-nan(0b1)",
		"-nan(18446744073709551615)", "-nan(18446744073709551616)",
		"-nan(99999999999999999999999)", "-nan(99999999999999999999999x)",
		"-nan(0xffffffffffffffff)", "-nan(0x10000000000000000)", "-nan(01777777777777777777777)",
		"-nan(02000000000000000000000)", "-nan) byte", "-inf / -nan", "-nan / -inf",
		// Overflow, underflow and the edges between them.
		"1e308 byte", "1e309 byte", "1e999 byte", "-1e309 byte", "1e999999999999999999999 byte",
		"1e-400 byte", "-1e-400", "1e-999999999999999999999 byte", "0e999999999 byte",
		"0e-99999999999999 byte", "1e-320", "1e-310", "4.9406564584124654e-324",
		"2.4703282292062327e-324", "2.4703282292062328e-324", "3e-324",
		"2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072013e-308",
		"2.2250738585072014e-308", "2.22507385850720138309e-308",
		"1.7976931348623157e308", "1.7976931348623158e308", "1.797693134862315807937289714053e308",
		"1.7976931348623159e308", "0x1.fffffffffffff8p1023", "0x1.fffffffffffff7ffp1023",
		"0x1p1024", "0x1p-1070", "0x1p-1074", "0x1p-1075", "0x1.0000000001p-1075",
		"0x1.8p-1074", "0x0.fffffffffffff8p-1022", "0x1.fffffffffffffp-1023",
		"0x1.ffffffffffffep-1023", "0x0.0000000000001p-1022", "0x1p-1022", "0x3p-1076",
		"0x1p99999999999999999999", "0x1p-99999999999999999999", "0x0p99999",
		"0."+strings.Repeat("0", 400)+"1", "1"+strings.Repeat("0", 400),
		"0."+strings.Repeat("0", 307)+"22250738585072011"+strings.Repeat("0", 900)+"1",
		strings.Repeat("9", 1000)+"e-1300", "1e1 1e1 1e1 1e1 1e300 byte",
		"1e-200 1e-200 byte", "1e200 / 1e-200",
	)
	return in
}

// parseUnitsRoundTripCases are pmUnitsStr's outputs for a spread of units.
func parseUnitsRoundTripCases(all bool) []string {
	seen := map[string]bool{}
	var in []string
	for i, u := range unitsStrCases() {
		if !all && i%5 != 0 {
			continue
		}
		if s := u.String(); !seen[s] {
			seen[s] = true
			in = append(in, s)
		}
	}
	return in
}

func parseUnitsGoldenInputs() []string {
	return append(parseUnitsGrammarCases(), parseUnitsRoundTripCases(false)...)
}

func TestParseUnitsMatchesLibpcp(t *testing.T) {
	raw := parseUnitsGoldenInputs()
	escaped := make([]string, len(raw))
	byLine := make(map[string]string, len(raw))
	for i, s := range raw {
		escaped[i] = parseUnitsEscape(s)
		byLine[escaped[i]] = s
	}
	strCheckGolden(t, "parseunits", escaped, func(in string) string {
		return in + "\t" + renderParseUnits(byLine[in])
	})
}

// parseUnitsRandomCases strings together words, powers, numbers and
// separators at random (from a fixed seed), for a sweep beyond the golden
// cases; then as many strings of fragments that exercise strtod's syntax.
func parseUnitsRandomCases(n int) []string {
	var pool []string
	for _, ws := range [][]unitsWord{unitsTimeWords, unitsSpaceWords, unitsCountWords} {
		for _, w := range ws {
			pool = append(pool, w.word)
		}
	}
	extras := []string{"/", "/", "/", "2", "0.5", "-3", "1e3", "1e-3", "0x10", ".25", "x", "^2", "10^3"}
	pool = append(pool, extras...)
	seps := []string{" ", " ", " ", "", "  ", "\t"}
	frags := []string{"0", "1", "9", ".", "-", "+", "e", "E", "x", "X", "p", "P", "^", "/", " ", "\t",
		"a", "f", "n", "i", "inf", "nan", "(", ")", "_", "count", " x 10", "^-", "^1", "s", "sec",
		"byte", "KB", "ms", "min", "h", "time-", "space-", "5", "0x", "e-3", "e+9", "e99", "e-99",
		"e308", "e-308", "e-320", "1e400", "nan(", "0x1p-1074", "2.2250738585072", "9999999999"}
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]string, 2*n)
	for i := range n {
		var b strings.Builder
		for range 1 + r.IntN(5) {
			b.WriteString(pool[r.IntN(len(pool))])
			if r.IntN(3) == 0 {
				b.WriteString(unitsPowerWords[r.IntN(len(unitsPowerWords))].word)
			}
			b.WriteString(seps[r.IntN(len(seps))])
		}
		out[i] = b.String()
		b.Reset()
		for range 1 + r.IntN(8) {
			b.WriteString(frags[r.IntN(len(frags))])
		}
		out[n+i] = b.String()
	}
	return out
}

// TestParseUnitsSweep compares ParseUnits with libpcp directly over every
// distinct pmUnitsStr output and 10000 random strings, too many
// to keep as golden data.
func TestParseUnitsSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep")
	}
	bin := pcptest.Harness(t, filepath.Join("testdata", "harness", "parseunits.c"))
	var in, want strings.Builder
	for _, s := range append(parseUnitsRoundTripCases(true), parseUnitsRandomCases(5000)...) {
		e := parseUnitsEscape(s)
		in.WriteString(e + "\n")
		want.WriteString(e + "\t" + renderParseUnits(s) + "\n")
	}
	strDiffLines(t, "gopcp (-) vs libpcp (+)", want.String(), pcptest.Run(t, in.String(), bin))
}

func TestParseUnitsCases(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Units
		mult float64
		msg  string
	}{
		{"2 count", Units{DimCount: 1}, 0.5, ""},
		{"count / 7.5 nanosecond", Units{DimCount: 1, DimTime: -1}, 7.5, ""},
		{"10 kilobytes / 2.5e2 count x 10^3", Units{DimSpace: 1, DimCount: -1, ScaleSpace: 1, ScaleCount: 3}, 25, ""},
		{"millisecond / second^2", Units{DimTime: -1, ScaleTime: TimeSec}, 1000, ""},
		{"mib/s", Units{DimSpace: 1, DimTime: -1, ScaleSpace: 2, ScaleTime: 3}, 1, ""},
		{"Kbyte / byte", Units{}, 1.0 / 1024, ""},
		{"count x 10^8", Units{}, 1, "count dimension out of bounds"},
		{"byte^8", Units{}, 1, "space dimension out of bounds"},
		{"sec^-8 / sec", Units{}, 1, "time dimension out of bounds"},
		{"sec sec", Units{}, 1, "unrecognized or duplicate base unit"},
		{"1e999 byte", Units{}, 1, "invalid floating point literal"},
		{"time-7 / time-7", Units{}, 1, "time scale out of range"},
	} {
		u, m, err := ParseUnits(tc.in)
		var pe *ParseUnitsError
		switch {
		case tc.msg == "" && (err != nil || u != tc.want || m != tc.mult):
			t.Errorf("ParseUnits(%q) = %v, %v, %v; want %v, %v", tc.in, u, m, err, tc.want, tc.mult)
		case tc.msg != "" && (!errors.As(err, &pe) || pe.Msg != tc.msg || err.Error() != tc.msg ||
			!errors.Is(err, ErrConv) || u != Units{} || m != 1):
			t.Errorf("ParseUnits(%q) = %v, %v, %v; want error %q", tc.in, u, m, err, tc.msg)
		}
	}
}

// Every pmUnitsStr output that can, parses back to its units with
// multiplier 1, as PCP intends (and the sweep shows libpcp does).
func TestParseUnitsRoundTrip(t *testing.T) {
	for _, u := range unitsStrCases() {
		s := u.String()
		if !unitsStringParsesBack(u) {
			continue
		}
		want := u
		if want.DimSpace == 0 {
			want.ScaleSpace = 0
		}
		if want.DimTime == 0 {
			want.ScaleTime = 0
		}
		if want.DimCount == 0 {
			want.ScaleCount = 0
		}
		if got, m, err := ParseUnits(s); err != nil || got != want || m != 1 {
			t.Errorf("ParseUnits(%q) = %#v, %v, %v; want %#v, 1", s, got, m, err, want)
		}
	}
}

// unitsStringParsesBack reports whether PCP's grammar can read u.String()
// back as u: not when there is no dimension, and not for "count x 10^n"
// meaning count x 10 to the n (n in 2..7), which reads as count x 10^n.
func unitsStringParsesBack(u Units) bool {
	if u.DimSpace == 0 && u.DimTime == 0 && u.DimCount == 0 {
		return false
	}
	d := unitsAbs(u.DimCount)
	return u.ScaleCount != 1 || d < 2 || d > 7
}

// The powers glibc's pow gives are the correctly rounded ones; spot-check
// the table against values libpcp produced (see the golden file) and
// exactness where the answer is exact.
func TestUnitsPowers(t *testing.T) {
	pw := unitsPowers()
	for s := range 16 {
		if got := pw.count[s][-unitsMinPower]; got != 1 {
			t.Errorf("count scale %d to the 0th = %v", s+unitsMinCountScale, got)
		}
	}
	if got := pw.time[5][2-unitsMinPower]; got != 3600*3600 {
		t.Errorf("hour^2 = %v", got)
	}
	if got := pw.count[3-unitsMinCountScale][-2-unitsMinPower]; got != 1e-6 {
		t.Errorf("(10^3)^-2 = %v", got)
	}
}

func TestStrtod(t *testing.T) {
	for _, tc := range []struct {
		in     string
		v      float64
		n      int
		erange bool
	}{
		{"1", 1, 1, false},
		{"1.5e3x", 1500, 5, false},
		{"1e", 1, 1, false},
		{"0x", 0, 1, false},
		{"0x1p-3", 0.125, 6, false},
		{"-.5", -0.5, 3, false},
		{"-", 0, 0, false},
		{".", 0, 0, false},
		{"1e400", math.Inf(1), 5, true},
		{"1e-400", 0, 6, true},
		{"0x1p-1070", 0x1p-1070, 9, false},
		{"0x1.8p-1074", 0x1p-1073, 11, true},
		{"-infinity!", math.Inf(-1), 9, false},
		{"-infin", math.Inf(-1), 4, false},
	} {
		v, n, erange := Strtod(tc.in)
		if v != tc.v || n != tc.n || erange != tc.erange {
			t.Errorf("Strtod(%q) = %v, %d, %v; want %v, %d, %v", tc.in, v, n, erange, tc.v, tc.n, tc.erange)
		}
	}
	v, n, erange := Strtod("-nan(0x123)")
	if bits := math.Float64bits(v); bits != 0xfff8000000000123 || n != 11 || erange {
		t.Errorf("Strtod(-nan(0x123)) = %#x, %d, %v", bits, n, erange)
	}
}

func FuzzParseUnits(f *testing.F) {
	for _, s := range parseUnitsGoldenInputs() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, m, err := ParseUnits(s)
		if err != nil {
			var pe *ParseUnitsError
			if !errors.As(err, &pe) || !errors.Is(err, ErrConv) || pe.Msg == "" || u != (Units{}) || m != 1 {
				t.Fatalf("ParseUnits(%q): bad failure %v, %v, %#v", s, u, m, err)
			}
			return
		}
		for _, d := range []int8{u.DimSpace, u.DimTime, u.DimCount} {
			if d < -8 || d > 7 {
				t.Fatalf("ParseUnits(%q) = %+v: dimension out of range", s, u)
			}
		}
		// What String prints parses back to the same units, multiplier 1.
		if str := u.String(); unitsStringParsesBack(u) {
			back, bm, err := ParseUnits(str)
			if err != nil || back != u || bm != 1 {
				t.Fatalf("ParseUnits(%q) = %+v; ParseUnits(%q) = %+v, %v, %v", s, u, str, back, bm, err)
			}
		}
	})
}
