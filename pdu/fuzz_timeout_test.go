package pdu

import (
	"math"
	"strconv"
	"testing"
	"time"
)

// FuzzParseRequestTimeout reads fuzzed PMCD_REQUEST_TIMEOUT values: the
// wait is never negative, a number of seconds a Duration holds is that
// many seconds to within rounding, and anything else is DefaultTimeout.
func FuzzParseRequestTimeout(f *testing.F) {
	for _, s := range []string{"", "10", "2.5", "0", "-1", "abc", "1e30", "inf", "nan", "0x10", " 5", "9223372036", "9223372037", "9223372036.854776"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		got := ParseRequestTimeout(v)
		if got < 0 {
			t.Fatalf("ParseRequestTimeout(%q) = %v", v, got)
		}
		secs, err := strconv.ParseFloat(v, 64)
		if err != nil || !(secs >= 0) || secs >= math.MaxInt64/float64(time.Second) {
			if got != DefaultTimeout {
				t.Fatalf("ParseRequestTimeout(%q) = %v, want the default", v, got)
			}
			return
		}
		if math.Abs(got.Seconds()-secs) > 1e-9*max(1, secs) {
			t.Fatalf("ParseRequestTimeout(%q) = %v, not %g s", v, got, secs)
		}
	})
}

// TestRequestTimeoutAtTheLimit: the largest float64 of seconds below
// math.MaxInt64 nanoseconds rounds up to 2^63 ns when multiplied, which
// wrapped to the most negative Duration (a request that times out at
// once); it is refused as the larger values are.
func TestRequestTimeoutAtTheLimit(t *testing.T) {
	for _, v := range []string{"9223372036.854776", "9223372036.854775807"} {
		if got := ParseRequestTimeout(v); got != DefaultTimeout {
			t.Errorf("ParseRequestTimeout(%q) = %v, want %v", v, got, DefaultTimeout)
		}
	}
}
