package pmapi

import (
	"math"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/getopt"
)

// pcpReconnect is libpcp 6.0.3's reading of PMCD_RECONNECT_TIMEOUT
// (pmReconnectContext in context.c), written out from its loop: each
// field (int)strtol(field, &end, 10), which must be positive and end at
// a comma or the end (a comma last ends the list); anything else, or no
// field, is the default.
func pcpReconnect(env string) []time.Duration {
	var out []time.Duration
	for p := env; p != ""; {
		n, end, _ := getopt.CStrtol(p, 10)
		val := int32(n)
		if val <= 0 || (end < len(p) && p[end] != ',') {
			return DefaultReconnectBackoff
		}
		out = append(out, time.Duration(val)*time.Second)
		if end == len(p) {
			break
		}
		p = p[end+1:]
	}
	if len(out) == 0 {
		return DefaultReconnectBackoff
	}
	return out
}

// FuzzReconnectTimeout reads fuzzed PMCD_RECONNECT_TIMEOUT values: the
// waits are libpcp's for the same value, and every wait is positive (a
// wait of a negative duration, or one cut short by overflow, would make
// the next reconnection attempt at once or never).
func FuzzReconnectTimeout(f *testing.F) {
	for _, s := range []string{"", "5", "1,2,3", "5,", " 7", "+8,9", "0", "-1", "1,,2", "1 ,2", "x",
		"99999999999999999", "9999999999999", "4294967297", "2147483648", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, env string) {
		got := ParseReconnectTimeout(env)
		if want := pcpReconnect(env); !slices.Equal(got, want) {
			t.Fatalf("ParseReconnectTimeout(%q) = %v, libpcp's rule gives %v", env, got, want)
		}
		for _, d := range got {
			if d <= 0 || d > math.MaxInt32*time.Second {
				t.Fatalf("ParseReconnectTimeout(%q) = %v", env, got)
			}
		}
	})
}

// FuzzConnectTimeout reads fuzzed PMCD_CONNECT_TIMEOUT values: the wait
// is never negative (a negative one fails every connection at once), an
// accepted number of seconds is that many seconds to within rounding,
// and what libpcp's strtod would not take whole is the default.
func FuzzConnectTimeout(f *testing.F) {
	for _, s := range []string{"", "5", "0.25", " 1.5", "1.5 ", "-1", "-0", "abc", "1e10", "1e300", "inf",
		"nan", "9223372036", "9223372037", "0x10", "   "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, env string) {
		got := ParseConnectTimeout(env)
		if got < 0 {
			t.Fatalf("ParseConnectTimeout(%q) = %v", env, got)
		}
		if got == DefaultConnectTimeout || env == "" {
			return
		}
		secs, err := strconv.ParseFloat(env[len(env)-len(trimSpaceLeft(env)):], 64)
		if err != nil {
			t.Fatalf("ParseConnectTimeout(%q) = %v from a value that is not a number", env, got)
		}
		if math.Abs(got.Seconds()-secs) > 1e-9*max(1, secs) {
			t.Fatalf("ParseConnectTimeout(%q) = %v, not %g s", env, got, secs)
		}
	})
}

func trimSpaceLeft(s string) string {
	for s != "" && (s[0] == ' ' || (s[0] >= '\t' && s[0] <= '\r')) {
		s = s[1:]
	}
	return s
}

// TestConnectTimeoutOutOfRange: waits a Duration cannot hold, and the
// infinities and NaN strtod reads, are refused as PCP refuses what is
// not a number (the default); before, they wrapped to the most negative
// Duration, a connection that failed at once. White space alone is not
// a number to strtod either, where the empty value is its zero.
func TestConnectTimeoutOutOfRange(t *testing.T) {
	for env, want := range map[string]time.Duration{
		"1e10": DefaultConnectTimeout, "1e300": DefaultConnectTimeout, "inf": DefaultConnectTimeout,
		"-inf": DefaultConnectTimeout, "nan": DefaultConnectTimeout, "9223372037": DefaultConnectTimeout,
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
