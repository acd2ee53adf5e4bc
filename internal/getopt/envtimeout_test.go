package getopt

import (
	"math"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/cstrtod"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// notifyPrefix is what pmNotifyErr puts before its message on standard
// error: a time stamp and the program's name and pid.
var notifyPrefix = regexp.MustCompile(`(?m)^\[[^]\n]*\] [^ \n]*\([0-9]+\) `)

// TestEnvTimeoutGoldenIsLibpcps runs testdata/envtimeout.c, built against
// libpcp, on testdata/envtimeout-inputs.txt: what it prints, time stamps
// left out, must be testdata/envtimeout.golden, which
// TestEnvTimeoutLikeLibpcp reads.
func TestEnvTimeoutGoldenIsLibpcps(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "envtimeout")
	pcptest.Compile(t, pcptest.C{Src: "testdata/envtimeout.c", Out: bin})
	in, err := os.Open("testdata/envtimeout-inputs.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	cmd := exec.Command(bin)
	cmd.Stdin = in
	cmd.Env = append(os.Environ(), "PCP_STDERR=") // pmNotifyErr to stderr, not a pop-up or log
	live, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("testdata/envtimeout.golden")
	if err != nil {
		t.Fatal(err)
	}
	if got := notifyPrefix.ReplaceAllString(string(live), ""); got != string(golden) {
		t.Fatalf("testdata/envtimeout.golden is not this libpcp's output:\n%s", got)
	}
}

// TestEnvTimeoutLikeLibpcp compares EnvTimeout with libpcp's
// __pmConnectTimeout and __pmRequestTimeout (testdata/envtimeout.golden)
// on each input: a value libpcp warns about and ignores is refused; one
// it keeps is the same number of microseconds, or no limit where libpcp's
// wait is past a Duration's reach or its conversion went negative (an
// infinity or a huge number); a NaN, which libpcp takes silently into
// that negative wait, is refused.
func TestEnvTimeoutLikeLibpcp(t *testing.T) {
	t.Parallel()
	golden, err := os.ReadFile("testdata/envtimeout.golden")
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`^connect=(\S+) request=(\S+)\t\[(.*)\]$`)
	var warnings []string
	results := 0
	for _, text := range strings.Split(strings.TrimSuffix(string(golden), "\n"), "\n") {
		if strings.HasPrefix(text, "Warning: ") {
			warnings = append(warnings, text)
			continue
		}
		m := line.FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("bad golden line %q", text)
		}
		in := m[3]
		results++
		got, ok := EnvTimeout(in)
		want := []string{
			"Warning: auxconnect.c:__pmAuxConnectPMCDPort: ignored bad PMCD_CONNECT_TIMEOUT = '" + in + "'",
			"Warning: ignored bad PMCD_REQUEST_TIMEOUT = '" + in + "'",
		}
		warned := len(warnings) > 0
		if warned && strings.Join(warnings, "\n") != strings.Join(want, "\n") {
			t.Errorf("%q: libpcp's warnings %q", in, warnings)
		}
		warnings = nil
		if m[1] != m[2] && !warned {
			t.Errorf("%q: libpcp reads connect %s, request %s", in, m[1], m[2])
		}
		if warned {
			if m[1] != "5" || m[2] != "10" {
				t.Errorf("%q: libpcp's defaults are %s and %s", in, m[1], m[2])
			}
			if ok {
				t.Errorf("EnvTimeout(%q) = %v, where libpcp ignores the value", in, got)
			}
			continue
		}
		secs, _, err := big.ParseFloat(m[1], 10, 200, big.ToNearestEven)
		if err != nil {
			t.Fatal(err)
		}
		v, _, _ := cstrtod.Parse(in)
		switch maxSecs := big.NewFloat(float64(math.MaxInt64) / 1e9); {
		case math.IsNaN(v):
			if ok {
				t.Errorf("EnvTimeout(%q) = %v, want it refused", in, got)
			}
		case secs.Sign() < 0 || secs.Cmp(maxSecs) > 0:
			if !ok || got != 0 {
				t.Errorf("EnvTimeout(%q) = %v, %v; libpcp %s s: want no limit", in, got, ok, m[1])
			}
		default:
			if !ok || got < 0 || got%time.Microsecond != 0 || timevalToReal(got) != m[1] {
				t.Errorf("EnvTimeout(%q) = %v, %v; libpcp %s s", in, got, ok, m[1])
			}
		}
	}
	if results < 40 {
		t.Fatalf("only %d golden results", results)
	}
}

// timevalToReal is d as libpcp's pmtimevalToReal reads the timeval of
// the same wait back, printed as testdata/envtimeout.c prints it: the
// microseconds divided and added to the seconds in x86-64's long double,
// then made a double. libpcp keeps the timeval; the double is how it is
// seen, and near 2^33 s it no longer tells microseconds apart.
func timevalToReal(d time.Duration) string {
	sec := new(big.Float).SetPrec(64).SetInt64(int64(d / time.Second))
	usec := new(big.Float).SetPrec(64).SetInt64(int64(d % time.Second / time.Microsecond))
	usec.Quo(usec, big.NewFloat(1e6))
	v, _ := sec.Add(sec, usec).Float64()
	return strconv.FormatFloat(v, 'g', 17, 64)
}

// FuzzEnvTimeout: a value is refused exactly when cstrtod.Parse (strtod) does not take
// all of it, reads a negative number or a NaN; an accepted wait is never
// negative, is whole microseconds, and is strtod's number rounded to the
// nearest microsecond, or no limit for more seconds than a Duration
// holds.
func FuzzEnvTimeout(f *testing.F) {
	for _, s := range []string{"", " 5", "0x10", "0x1_0p0", "1e10", "5e-7", "inf", "nan", "-0", "5 ", "0.9999995", "9223372036.854775"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := EnvTimeout(s)
		v, end, _ := cstrtod.Parse(s)
		if wantOK := end == len(s) && v >= 0; ok != wantOK {
			t.Fatalf("EnvTimeout(%q) = %v, %v; strtod reads %v to %d", s, got, ok, v, end)
		}
		if !ok {
			return
		}
		if got < 0 || got%time.Microsecond != 0 {
			t.Fatalf("EnvTimeout(%q) = %v", s, got)
		}
		if v >= float64(math.MaxInt64)/1e9 {
			if got != 0 && math.Abs(got.Seconds()-v) > 1e-6 {
				t.Fatalf("EnvTimeout(%q) = %v for %g s", s, got, v)
			}
			return
		}
		if math.Abs(got.Seconds()-v) > 0.5e-6+1e-15*v {
			t.Fatalf("EnvTimeout(%q) = %v, not %g s to the microsecond", s, got, v)
		}
	})
}
