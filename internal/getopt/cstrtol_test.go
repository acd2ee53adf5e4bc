package getopt

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCStrtolLikeGlibc compares CStrtol and CAtoi with glibc's strtol and
// atoi on testdata/inputs.txt in bases 0, 10, 16, 8, 36 and 2: the
// golden file is testdata/cstrtol.c's output, and where a C compiler is
// here the program is built and run again, so the golden is glibc's now.
func TestCStrtolLikeGlibc(t *testing.T) {
	t.Parallel()
	golden, err := os.ReadFile("testdata/cstrtol.golden")
	if err != nil {
		t.Fatal(err)
	}
	if cc, err := exec.LookPath("cc"); err == nil {
		bin := filepath.Join(t.TempDir(), "cstrtol")
		if out, err := exec.Command(cc, "-o", bin, "testdata/cstrtol.c").CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		in, err := os.Open("testdata/inputs.txt")
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		cmd := exec.Command(bin, "0", "10", "16", "8", "36", "2")
		cmd.Stdin = in
		live, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		if string(live) != string(golden) {
			t.Fatalf("testdata/cstrtol.golden is not this glibc's output:\n%s", live)
		}
	}
	sc := bufio.NewScanner(strings.NewReader(string(golden)))
	lines := 0
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), "\t", 6)
		if len(f) != 6 {
			t.Fatalf("bad golden line %q", sc.Text())
		}
		base, _ := strconv.Atoi(f[0])
		in := strings.TrimSuffix(strings.TrimPrefix(f[5], "["), "]")
		n, end, over := CStrtol(in, base)
		got := strings.Join([]string{f[0], strconv.FormatInt(n, 10), strconv.Itoa(end), b2s(over), strconv.Itoa(CAtoi(in)), f[5]}, "\t")
		if got != sc.Text() {
			t.Errorf("glibc: %s\nours:  %s", sc.Text(), got)
		}
		lines++
	}
	if lines < 200 {
		t.Fatalf("only %d golden lines", lines)
	}
}

func b2s(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// FuzzCStrtol: the offset is within s, and the digits taken, read by
// strconv in the base CStrtol chose, give its value when in range.
func FuzzCStrtol(f *testing.F) {
	for _, s := range []string{"", " -0x1f", "0777", "99999999999999999999", "-9223372036854775808", "0x"} {
		f.Add(s, 0)
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, s string, base int) {
		n, end, over := CStrtol(s, base)
		if end < 0 || end > len(s) || (end == 0 && (n != 0 || over)) {
			t.Fatalf("CStrtol(%q, %d) = %d, %d, %v", s, base, n, end, over)
		}
		if end == 0 || over {
			return
		}
		t2 := strings.TrimLeft(s[:end], " \t\n\v\f\r")
		b := base
		digits := strings.TrimLeft(t2, "+-")
		sign := t2[:len(t2)-len(digits)]
		if (b == 0 || b == 16) && len(digits) > 2 && digits[0] == '0' && digits[1]|0x20 == 'x' {
			b, digits = 16, digits[2:]
		} else if b == 0 && len(digits) > 0 && digits[0] == '0' {
			b = 8
		} else if b == 0 {
			b = 10
		}
		want, err := strconv.ParseInt(sign+digits, b, 64)
		if err != nil || want != n {
			t.Fatalf("CStrtol(%q, %d) = %d; strconv gives %d, %v", s, base, n, want, err)
		}
	})
}
