package cstrtod

import (
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// intAnswer is ParseUint's and ParseInt's results as strtol.c prints
// glibc's strtoull and strtoll answers.
func intAnswer(s string, base int) string {
	u, un, ue := ParseUint(s, base)
	v, vn, ve := ParseInt(s, base)
	return fmt.Sprintf("%d\t%d\t%d\t%d\t%d\t%d", u, un, b2i(ue), v, vn, b2i(ve))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// strtol is glibc's answer for s in base as the line strtol.c prints.
func (r *cRunning) strtol(s string, base int) (string, error) {
	return r.ask(strconv.Itoa(base) + " " + hex.EncodeToString([]byte(s)))
}

// TestParseIntLikeGlibc compares ParseUint and ParseInt with glibc's
// strtoull and strtoll on the inputs of testdata/strtol.golden (each line
// strtol.c's answer, the base, then the input as a Go quoted string);
// where a C compiler is here glibc is asked again, so that the golden is
// this glibc's (and a new line's answer is told). Reading the input as
// bytes gives the same answer.
func TestParseIntLikeGlibc(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/strtol.golden")
	if err != nil {
		t.Fatal(err)
	}
	g := strtolC.start(t)
	lines := 0
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 8 {
			t.Fatalf("bad golden line %q", line)
		}
		base, err := strconv.Atoi(f[6])
		if err != nil {
			t.Fatalf("golden line %q: %v", line, err)
		}
		in, err := strconv.Unquote(f[7])
		if err != nil {
			t.Fatalf("golden line %q: %v", line, err)
		}
		want := strings.Join(f[:6], "\t")
		if g != nil {
			live, err := g.strtol(in, base)
			if err != nil {
				t.Fatal(err)
			}
			if live != want {
				t.Errorf("testdata/strtol.golden for %q base %d is %s, this glibc says %s", in, base, want, live)
			}
		}
		if got := intAnswer(in, base); got != want {
			t.Errorf("base %d %q:\nglibc %s\nours  %s", base, in, want, got)
		}
		u, un, ue := ParseUint([]byte(in), base)
		if u2, un2, ue2 := ParseUint(in, base); u != u2 || un != un2 || ue != ue2 {
			t.Errorf("base %d %q: bytes give %d %d %v, string %d %d %v", base, in, u, un, ue, u2, un2, ue2)
		}
		lines++
	}
	if lines < 400 {
		t.Fatalf("only %d golden lines", lines)
	}
}

// TestParseIntAllocs: reading bytes or a string allocates nothing, which
// the agents that read numbers from every file at every fetch rely on.
func TestParseIntAllocs(t *testing.T) {
	b := []byte(" -0x7fffffffffffffff tail")
	s := "18446744073709551616 tail"
	if n := testing.AllocsPerRun(100, func() {
		ParseUint(b, 0)
		ParseInt(b, 16)
		ParseUint(s, 10)
		ParseInt(s, 0)
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

// FuzzParseInt compares ParseUint and ParseInt with glibc's strtoull and
// strtoll where cc is present and checks, everywhere, what holds of any
// answer: the end is within s and the same for both, nothing read is 0
// with no ERANGE, what was read gives the same answer alone and as bytes,
// and a decimal token of a sign and digits is strconv's value when
// strconv takes it.
func FuzzParseInt(f *testing.F) {
	for _, s := range []string{"", " 5", "0x10", "-0x", "0xg", "077", "-1", "18446744073709551616", "-9223372036854775809",
		"zz", "\v+12abc", "0b1", "1\x002"} {
		f.Add(s, int8(0))
		f.Add(s, int8(10))
	}
	f.Add("7", int8(37))
	f.Add("11", int8(2))
	f.Fuzz(func(t *testing.T, s string, b int8) {
		base := int(b)
		got := intAnswer(s, base)
		if g := strtolC.start(t); g != nil && len(s) < 1<<15 {
			want, err := g.strtol(s, base)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("base %d %q:\nglibc %s\nours  %s", base, s, want, got)
			}
		}
		u, un, ue := ParseUint(s, base)
		v, vn, ve := ParseInt(s, base)
		if un < 0 || un > len(s) || un != vn || (un == 0 && (u != 0 || v != 0 || ue || ve)) {
			t.Fatalf("base %d %q: %s", base, s, got)
		}
		if un == 0 {
			return
		}
		if again := intAnswer(s[:un], base); again != got {
			t.Fatalf("base %d %q = %s; its token alone %s", base, s, got, again)
		}
		if u2, un2, ue2 := ParseUint([]byte(s), base); u2 != u || un2 != un || ue2 != ue {
			t.Fatalf("base %d %q: bytes give %d %d %v", base, s, u2, un2, ue2)
		}
		if tok := strings.TrimLeft(s[:un], " \t\n\v\f\r"); base == 10 && strings.Trim(tok, "+-0123456789") == "" {
			if want, err := strconv.ParseInt(tok, 10, 64); err == nil && (want != v || ve) {
				t.Fatalf("ParseInt(%q) = %d, strconv %d", s, v, want)
			}
		}
	})
}
