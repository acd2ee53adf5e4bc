package pmapi

import (
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/getopt"
	"github.com/gopcp/gopcp/pcp"
)

// splitReconnect reads a PMCD_RECONNECT_TIMEOUT value another way than
// ParseReconnectTimeout's scan, from libpcp's rules as they read: the
// value split at commas, one empty field last dropped (a comma ending
// the list), every field all of it read by strtol in base 10 with a
// positive int (C's (int) of the long) as the result. ok is false when
// libpcp keeps its default.
func splitReconnect(env string) (out []time.Duration, ok bool) {
	fields := strings.Split(env, ",")
	if len(fields) > 1 && fields[len(fields)-1] == "" {
		fields = fields[:len(fields)-1]
	}
	for _, f := range fields {
		n, end, _ := getopt.CStrtol(f, 10)
		if end != len(f) || int32(n) <= 0 {
			return nil, false
		}
		out = append(out, time.Duration(int32(n))*time.Second)
	}
	return out, true
}

// FuzzReconnectTimeout reads fuzzed PMCD_RECONNECT_TIMEOUT values: the
// waits are splitReconnect's, or the default where it refuses the value,
// and every wait is positive (a wait of a negative duration, or one cut
// short by overflow, would make the next reconnection attempt at once or
// never).
func FuzzReconnectTimeout(f *testing.F) {
	for _, s := range []string{"", "5", "1,2,3", "5,", "5,,", ",", " 7", "7 ", "+8,9", "0", "-1", "1,,2", "1 ,2", "x",
		"99999999999999999", "9999999999999", "4294967297", "2147483648", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, env string) {
		got := ParseReconnectTimeout(env)
		want, ok := splitReconnect(env)
		if !ok {
			want = DefaultReconnectBackoff
		}
		if !slices.Equal(got, want) {
			t.Fatalf("ParseReconnectTimeout(%q) = %v, libpcp's rules give %v", env, got, want)
		}
		for _, d := range got {
			if d <= 0 || d > math.MaxInt32*time.Second {
				t.Fatalf("ParseReconnectTimeout(%q) = %v", env, got)
			}
		}
	})
}

// FuzzConnectTimeout reads fuzzed values through libpcp's reading of the timeout
// variables (getopt.EnvTimeout, whose own fuzz target checks it against
// C's strtod): a value it takes is the timeout, without a warning; any
// other is the default, with libpcp's warning word for word.
func FuzzConnectTimeout(f *testing.F) {
	for _, s := range []string{"", "5", "0.25", " 1.5", "1.5 ", "-1", "-0", "abc", "1e10", "1e300", "inf",
		"nan", "9223372036", "9223372037", "0x10", "   ", "0x1_0p0", "5e-7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, env string) {
		got, warning := ParseConnectTimeout(env), ConnectTimeoutWarning(env)
		d, ok := getopt.EnvTimeout(env)
		switch {
		case ok && (got != d || warning != ""):
			t.Fatalf("ParseConnectTimeout(%q) = %v, %q; libpcp's reading is %v, no warning", env, got, warning, d)
		case !ok && (got != DefaultConnectTimeout || warning != "auxconnect.c:__pmAuxConnectPMCDPort: ignored bad PMCD_CONNECT_TIMEOUT = '"+env+"'"):
			t.Fatalf("ParseConnectTimeout(%q) = %v, %q; want the default and libpcp's warning", env, got, warning)
		}
	})
}

// TestConnectTimeoutLikeLibpcp reads each value of
// internal/getopt/testdata/envtimeout.golden, libpcp's
// __pmConnectTimeout for it (built and compared with libpcp there): a
// value libpcp ignores gives the default and libpcp's warning word for
// word; one it takes gives no warning and the same microseconds, or no
// limit where libpcp's wait is past a Duration or went negative (an
// infinity, a huge number); a NaN, which libpcp takes silently into a
// negative wait, is the default here, with the warning of a value
// ignored.
func TestConnectTimeoutLikeLibpcp(t *testing.T) {
	golden, err := os.ReadFile("../internal/getopt/testdata/envtimeout.golden")
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`^connect=(\S+) request=\S+\t\[(.*)\]$`)
	var warned []string
	results := 0
	for _, text := range strings.Split(strings.TrimSuffix(string(golden), "\n"), "\n") {
		if w, ok := strings.CutPrefix(text, "Warning: "); ok {
			if strings.Contains(w, "PMCD_CONNECT_TIMEOUT") {
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
		got, warning := ParseConnectTimeout(in), ConnectTimeoutWarning(in)
		want := "" // libpcp's warnings, at most one
		if len(warned) > 0 {
			want = warned[0]
		}
		warned = nil
		secs, _, _ := pcp.Strtod(in)
		switch {
		case want != "" || math.IsNaN(secs):
			if want == "" { // libpcp says nothing as it takes a NaN; ignoring it, we say so
				want = "auxconnect.c:__pmAuxConnectPMCDPort: ignored bad PMCD_CONNECT_TIMEOUT = '" + in + "'"
			}
			if got != DefaultConnectTimeout || warning != want {
				t.Errorf("%q: %v, %q; libpcp %s s, %q", in, got, warning, pcpSecs, want)
			}
		case strings.HasPrefix(pcpSecs, "-") || secs >= float64(math.MaxInt64)/1e9:
			if got != 0 || warning != "" {
				t.Errorf("%q: %v, %q; libpcp %s s: want no limit", in, got, warning, pcpSecs)
			}
		default:
			lib, err := strconv.ParseFloat(pcpSecs, 64)
			if d, _ := getopt.EnvTimeout(in); err != nil || got != d || warning != "" || math.Abs(got.Seconds()-lib) > 2e-6 {
				t.Errorf("%q: %v, %q; libpcp %s s", in, got, warning, pcpSecs)
			}
		}
	}
	if results < 40 {
		t.Fatalf("only %d golden results", results)
	}
}

// TestConnectTimeoutOutOfRange: waits past a Duration's reach, which once
// wrapped to the most negative Duration (a connection that failed at
// once), are no limit: libpcp keeps 1e10 s as it is, effectively
// forever, and its conversion of an infinity or of 1e300 goes negative.
// -inf is negative and a NaN not a number: both ignored, as libpcp
// ignores -inf. White space alone is not a number to strtod either,
// where the empty value is its zero.
func TestConnectTimeoutOutOfRange(t *testing.T) {
	for env, want := range map[string]time.Duration{
		"1e10": 0, "1e300": 0, "inf": 0,
		"-inf": DefaultConnectTimeout, "nan": DefaultConnectTimeout, "9223372037": 0,
		"   ": DefaultConnectTimeout, "": 0, "9223372036": 9223372036 * time.Second, " 2.5": 2500 * time.Millisecond,
	} {
		if got := ParseConnectTimeout(env); got != want {
			t.Errorf("ParseConnectTimeout(%q) = %v, want %v", env, got, want)
		}
	}
}

// TestReconnectTimeoutAsLibpcp: fields as strtol reads them (white space
// before a field, a comma last), and a field past a Duration's reach cut
// to an int as libpcp cuts it rather than wrapped negative.
func TestReconnectTimeoutAsLibpcp(t *testing.T) {
	for env, want := range map[string][]time.Duration{
		"5,":                {5 * time.Second},
		" 7, 8":             {7 * time.Second, 8 * time.Second},
		"99999999999999999": {1569325055 * time.Second},
		"1,,2":              DefaultReconnectBackoff,
		"2147483648":        DefaultReconnectBackoff,
	} {
		if got := ParseReconnectTimeout(env); !slices.Equal(got, want) {
			t.Errorf("ParseReconnectTimeout(%q) = %v, want %v", env, got, want)
		}
	}
}
