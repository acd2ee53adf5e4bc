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

// cProgram is a C program of testdata, built and started once for the
// test binary when cc is present, asked one line at a time.
type cProgram struct {
	src  string
	once sync.Once
	run  *cRunning
	err  error
}

// cRunning is a started cProgram.
type cRunning struct {
	mu  sync.Mutex
	in  io.WriteCloser
	out *bufio.Reader
}

var (
	strtodC = &cProgram{src: "testdata/strtod.c"}
	strtolC = &cProgram{src: "testdata/strtol.c"}
)

// start builds and starts the program; it reports nil when cc is absent.
// The program ends when the test binary does, its standard input closing.
func (p *cProgram) start(t testing.TB) *cRunning {
	p.once.Do(func() {
		cc, err := exec.LookPath("cc")
		if err != nil {
			return
		}
		dir, err := os.MkdirTemp("", "cstrtod")
		if err != nil {
			p.err = err
			return
		}
		defer os.RemoveAll(dir) // the running program keeps its file
		bin := filepath.Join(dir, "prog")
		if out, err := exec.Command(cc, "-o", bin, p.src).CombinedOutput(); err != nil {
			p.err = fmt.Errorf("%s: %v\n%s", p.src, err, out)
			return
		}
		cmd := exec.Command(bin)
		in, err := cmd.StdinPipe()
		if err != nil {
			p.err = err
			return
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			p.err = err
			return
		}
		if p.err = cmd.Start(); p.err != nil {
			return
		}
		p.run = &cRunning{in: in, out: bufio.NewReader(out)}
	})
	if p.err != nil {
		t.Fatal(p.err)
	}
	return p.run
}

// ask sends one line and returns the program's line of answer.
func (r *cRunning) ask(line string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := fmt.Fprintf(r.in, "%s\n", line); err != nil {
		return "", err
	}
	answer, err := r.out.ReadString('\n')
	return strings.TrimSuffix(answer, "\n"), err
}

// strtod is glibc's answer for s as the line strtod.c prints.
func (r *cRunning) strtod(s string) (string, error) {
	return r.ask(hex.EncodeToString([]byte(s)))
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
	g := strtodC.start(t)
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
		if g := strtodC.start(t); g != nil && len(s) < 1<<15 {
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
