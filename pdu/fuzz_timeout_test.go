package pdu

import (
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/getopt"
	"github.com/gopcp/gopcp/pcp"
)

// FuzzParseRequestTimeout reads fuzzed values through libpcp's reading of the timeout
// variables (getopt.EnvTimeout, whose own fuzz target checks it against
// C's strtod): a value it takes is the timeout, without a warning; any
// other is the default, with libpcp's warning word for word.
func FuzzParseRequestTimeout(f *testing.F) {
	for _, s := range []string{"", "10", "2.5", "0", "-1", "abc", "1e30", "inf", "nan", "0x10", " 5", "5 ", "0x1_0p0", "5e-7",
		"9223372036", "9223372037", "9223372036.854776"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		got, warning := ParseRequestTimeout(v), RequestTimeoutWarning(v)
		d, ok := getopt.EnvTimeout(v)
		switch {
		case ok && (got != d || warning != ""):
			t.Fatalf("ParseRequestTimeout(%q) = %v, %q; libpcp's reading is %v, no warning", v, got, warning, d)
		case !ok && (got != DefaultTimeout || warning != "ignored bad PMCD_REQUEST_TIMEOUT = '"+v+"'"):
			t.Fatalf("ParseRequestTimeout(%q) = %v, %q; want the default and libpcp's warning", v, got, warning)
		}
	})
}

// TestRequestTimeoutLikeLibpcp reads each value of
// internal/getopt/testdata/envtimeout.golden, libpcp's
// __pmRequestTimeout for it (built and compared with libpcp there): a
// value libpcp ignores gives the default and libpcp's warning word for
// word; one it takes gives no warning and the same microseconds, or no
// limit where libpcp's wait is past a Duration or went negative (an
// infinity, a huge number); a NaN, which libpcp takes silently into a
// negative wait, is the default here, with the warning of a value
// ignored.
func TestRequestTimeoutLikeLibpcp(t *testing.T) {
	golden, err := os.ReadFile("../internal/getopt/testdata/envtimeout.golden")
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`^connect=\S+ request=(\S+)\t\[(.*)\]$`)
	var warned []string
	results := 0
	for _, text := range strings.Split(strings.TrimSuffix(string(golden), "\n"), "\n") {
		if w, ok := strings.CutPrefix(text, "Warning: "); ok {
			if !strings.Contains(w, "PMCD_CONNECT_TIMEOUT") {
				warned = append(warned, w)
			}
			continue
		}
		m := line.FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("bad golden line %q", text)
		}
		results++
		in, pcpSecs := m[2], m[1]
		got, warning := ParseRequestTimeout(in), RequestTimeoutWarning(in)
		want := "" // libpcp's warnings, at most one
		if len(warned) > 0 {
			want = warned[0]
		}
		warned = nil
		secs, _, _ := pcp.Strtod(in)
		switch {
		case want != "" || math.IsNaN(secs):
			if want == "" { // libpcp says nothing as it takes a NaN; ignoring it, we say so
				want = "ignored bad PMCD_REQUEST_TIMEOUT = '" + in + "'"
			}
			if got != DefaultTimeout || warning != want {
				t.Errorf("%q: %v, %q; libpcp %s s, %q", in, got, warning, pcpSecs, want)
			}
		case strings.HasPrefix(pcpSecs, "-") || secs >= float64(math.MaxInt64)/1e9:
			if got != 0 || warning != "" {
				t.Errorf("%q: %v, %q; libpcp %s s: want no limit", in, got, warning, pcpSecs)
			}
		default:
			if d, _ := getopt.EnvTimeout(in); got != d || warning != "" || math.Abs(got.Seconds()-mustFloat(t, pcpSecs)) > 2e-6 {
				t.Errorf("%q: %v, %q; libpcp %s s", in, got, warning, pcpSecs)
			}
		}
	}
	if results < 40 {
		t.Fatalf("only %d golden results", results)
	}
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestRequestTimeoutAtTheLimit: the largest float64 of seconds below
// math.MaxInt64 nanoseconds rounds up to 2^63 ns when multiplied, which
// once wrapped to the most negative Duration (a request that times out
// at once); past a Duration's reach the wait is no limit, as libpcp's
// own is effectively forever, and just below it the microseconds
// libpcp's timeval holds.
func TestRequestTimeoutAtTheLimit(t *testing.T) {
	for v, want := range map[string]time.Duration{
		"9223372036.854776":    0,
		"9223372036.854775807": 0,
		"9223372036.8547":      9223372036854700 * time.Microsecond,
	} {
		if got := ParseRequestTimeout(v); got != want {
			t.Errorf("ParseRequestTimeout(%q) = %v, want %v", v, got, want)
		}
	}
}
