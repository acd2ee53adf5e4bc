package getopt

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCStrtodLikeGlibc compares CStrtod with glibc's strtod on
// testdata/strtod-inputs.txt: the golden file is testdata/cstrtod.c's
// output, and where a C compiler is here the program is built and run
// again, so the golden is this glibc's.
func TestCStrtodLikeGlibc(t *testing.T) {
	t.Parallel()
	golden, err := os.ReadFile("testdata/cstrtod.golden")
	if err != nil {
		t.Fatal(err)
	}
	if cc, err := exec.LookPath("cc"); err == nil {
		bin := filepath.Join(t.TempDir(), "cstrtod")
		if out, err := exec.Command(cc, "-o", bin, "testdata/cstrtod.c").CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		in, err := os.Open("testdata/strtod-inputs.txt")
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		cmd := exec.Command(bin)
		cmd.Stdin = in
		live, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		if string(live) != string(golden) {
			t.Fatalf("testdata/cstrtod.golden is not this glibc's output:\n%s", live)
		}
	}
	sc := bufio.NewScanner(strings.NewReader(string(golden)))
	lines := 0
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), "\t", 3)
		if len(f) != 3 {
			t.Fatalf("bad golden line %q", sc.Text())
		}
		in := strings.TrimSuffix(strings.TrimPrefix(f[2], "["), "]")
		v, end := CStrtod(in)
		got := strings.Join([]string{doubleText(v), strconv.Itoa(end), f[2]}, "\t")
		if got != sc.Text() {
			t.Errorf("glibc: %s\nours:  %s", sc.Text(), got)
		}
		lines++
	}
	if lines < 80 {
		t.Fatalf("only %d golden lines", lines)
	}
}

// doubleText is v as testdata/cstrtod.c prints it.
func doubleText(v float64) string {
	if math.IsNaN(v) {
		if math.Signbit(v) {
			return "-nan"
		}
		return "+nan"
	}
	return fmt.Sprintf("%016x", math.Float64bits(v))
}

// FuzzCStrtod: the offset is within s and, for a number, never before a
// digit strtod could still have taken; nothing read is 0; what was
// read, read again alone, gives the same value and the same length; and
// a token of digits, point and e exponent only is strconv's value.
func FuzzCStrtod(f *testing.F) {
	for _, s := range []string{"", " 5", "0x10", "0x1_0p0", "1e10", "5e-7", "-inf", "nan(x)", "0x.8p", ".e1", "1e+"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, end := CStrtod(s)
		if end < 0 || end > len(s) || (end == 0 && v != 0) {
			t.Fatalf("CStrtod(%q) = %v, %d", s, v, end)
		}
		if end == 0 {
			return
		}
		tok := strings.TrimLeft(s[:end], " \t\n\v\f\r+-")
		numeric := tok[0] != 'i' && tok[0] != 'I' && tok[0] != 'n' && tok[0] != 'N'
		if numeric && end < len(s) && s[end] >= '0' && s[end] <= '9' {
			t.Fatalf("CStrtod(%q) stopped at %d, before a digit", s, end)
		}
		v2, end2 := CStrtod(s[:end])
		if end2 != end || doubleText(v2) != doubleText(v) {
			t.Fatalf("CStrtod(%q) = %v, %d; its token alone %v, %d", s, v, end, v2, end2)
		}
		if tok = strings.TrimLeft(s[:end], " \t\n\v\f\r"); strings.Trim(tok, "+-0123456789.eE") == "" {
			want, err := strconv.ParseFloat(tok, 64)
			if err == nil && doubleText(want) != doubleText(v) {
				t.Fatalf("CStrtod(%q) = %v, strconv %v", s, v, want)
			}
		}
	})
}
