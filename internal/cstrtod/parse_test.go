package cstrtod

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// glibcStrtod is testdata/strtod.c built and running, asked one input at a
// time; nil where there is no C compiler.
type glibcStrtod struct {
	mu  sync.Mutex
	in  io.WriteCloser
	out *bufio.Reader
}

var (
	glibcOnce sync.Once
	glibc     *glibcStrtod
	glibcErr  error
)

// startGlibc builds and starts testdata/strtod.c once for the test binary;
// it reports nil, nil when cc is absent. The program ends when the test
// binary does, its standard input closing.
func startGlibc(t testing.TB) *glibcStrtod {
	glibcOnce.Do(func() {
		cc, err := exec.LookPath("cc")
		if err != nil {
			return
		}
		dir, err := os.MkdirTemp("", "cstrtod")
		if err != nil {
			glibcErr = err
			return
		}
		bin := filepath.Join(dir, "strtod")
		if out, err := exec.Command(cc, "-o", bin, "testdata/strtod.c").CombinedOutput(); err != nil {
			glibcErr = fmt.Errorf("%v\n%s", err, out)
			return
		}
		cmd := exec.Command(bin)
		in, err := cmd.StdinPipe()
		if err != nil {
			glibcErr = err
			return
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			glibcErr = err
			return
		}
		if glibcErr = cmd.Start(); glibcErr != nil {
			return
		}
		os.RemoveAll(dir) // the running program keeps its file
		glibc = &glibcStrtod{in: in, out: bufio.NewReader(out)}
	})
	if glibcErr != nil {
		t.Fatal(glibcErr)
	}
	return glibc
}

// strtod is glibc's answer for s as the line strtod.c prints.
func (g *glibcStrtod) strtod(s string) (string, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, err := fmt.Fprintf(g.in, "%s\n", hex.EncodeToString([]byte(s))); err != nil {
		return "", err
	}
	line, err := g.out.ReadString('\n')
	return strings.TrimSuffix(line, "\n"), err
}

// answer is Parse's result as strtod.c prints glibc's.
func answer(s string) string {
	v, n, erange := Parse(s)
	e := 0
	if erange {
		e = 1
	}
	return fmt.Sprintf("%016x\t%d\t%d", math.Float64bits(v), n, e)
}

// TestParseLikeGlibc compares Parse with glibc's strtod on the inputs of
// testdata/glibc.golden (each line strtod.c's answer, then the input as a
// Go quoted string); where a C compiler is here glibc is asked again, so
// that the golden is this glibc's (and a new line's answer is told).
func TestParseLikeGlibc(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/glibc.golden")
	if err != nil {
		t.Fatal(err)
	}
	g := startGlibc(t)
	lines := 0
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		f := strings.SplitN(line, "\t", 4)
		if len(f) != 4 {
			t.Fatalf("bad golden line %q", line)
		}
		in, err := strconv.Unquote(f[3])
		if err != nil {
			t.Fatalf("golden line %q: %v", line, err)
		}
		want := strings.Join(f[:3], "\t")
		if g != nil {
			live, err := g.strtod(in)
			if err != nil {
				t.Fatal(err)
			}
			if live != want {
				t.Errorf("testdata/glibc.golden for %q is %s, this glibc says %s", in, want, live)
			}
		}
		if got := answer(in); got != want {
			t.Errorf("Parse(%q):\nglibc %s\nours  %s", in, want, got)
		}
		lines++
	}
	if lines < 150 {
		t.Fatalf("only %d golden lines", lines)
	}
}

// FuzzParse compares Parse with glibc's strtod where cc is present and
// checks, everywhere, what holds of any answer: the end is within s and 0
// when nothing is read (then the value is 0 and no ERANGE), what was read,
// read again alone, gives the same answer, and a token of decimal digits,
// point and e exponent only is strconv's value.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", " 5", "0x10", "0x1_0p0", "1e10", "5e-7", "-inf", "nan(x)", "nan(0x12)",
		"nan(99999999999999999999)", "0x.8p", ".e1", "1e+", "4.9e-324", "2.4703282292062327e-324", "0x1.8p-1074", "\v-1e309x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := answer(s)
		if g := startGlibc(t); g != nil && len(s) < 1<<15 {
			want, err := g.strtod(s)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("Parse(%q):\nglibc %s\nours  %s", s, want, got)
			}
		}
		v, n, erange := Parse(s)
		if n < 0 || n > len(s) || (n == 0 && (math.Float64bits(v) != 0 || erange)) {
			t.Fatalf("Parse(%q) = %v, %d, %v", s, v, n, erange)
		}
		if n == 0 {
			return
		}
		if again := answer(s[:n]); again != got {
			t.Fatalf("Parse(%q) = %s; its token alone %s", s, got, again)
		}
		if tok := strings.TrimLeft(s[:n], " \t\n\v\f\r"); strings.Trim(tok, "+-0123456789.eE") == "" {
			want, err := strconv.ParseFloat(tok, 64)
			if err == nil && math.Float64bits(want) != math.Float64bits(v) {
				t.Fatalf("Parse(%q) = %v, strconv %v", s, v, want)
			}
		}
	})
}
