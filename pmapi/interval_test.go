package pmapi

import (
	"errors"
	"testing"
	"time"
)

func TestParseInterval(t *testing.T) {
	tests := []struct {
		spec   string
		want   time.Duration
		report string
	}{
		{spec: "1", want: time.Second},
		{spec: "0.25", want: 250 * time.Millisecond},
		{spec: "2sec", want: 2 * time.Second},
		{spec: "2 secs", want: 2 * time.Second},
		{spec: "100msec", want: 100 * time.Millisecond},
		{spec: "1min 30s", want: 90 * time.Second},
		{spec: "1 HOUR", want: time.Hour},
		{spec: "1.5e1", want: 15 * time.Second},
		{spec: "3 2", want: 5 * time.Second},
		{spec: "1d", want: 24 * time.Hour},
		{spec: "5usec", want: 5 * time.Microsecond},
		{spec: "1x", report: "1x\n ^ -- unexpected value\n"},
		{spec: "-1", report: "-1\n^ -- unexpected value\n"},
		{spec: "abc", report: "abc\n^ -- unexpected value\n"},
		{spec: "1 sec foo", report: "1 sec foo\n      ^ -- unexpected value\n"},
		{spec: "", report: "\n^ -- Null or empty specification\n"},
	}
	for _, tc := range tests {
		got, err := ParseInterval(tc.spec)
		if tc.report != "" {
			var ie *IntervalError
			if !errors.As(err, &ie) || ie.Report() != tc.report {
				t.Errorf("ParseInterval(%q) error %v, want report %q", tc.spec, err, tc.report)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseInterval(%q) = %v, %v; want %v", tc.spec, got, err, tc.want)
		}
	}
}

func FuzzParseInterval(f *testing.F) {
	for _, s := range []string{"1", "1min 30s", "1x", "", "1e400", "nan sec", "  5  "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseInterval(s)
		var ie *IntervalError
		if err != nil && !errors.As(err, &ie) {
			t.Fatalf("%q: %T %v", s, err, err)
		}
		if err == nil && d < 0 {
			t.Fatalf("%q: negative %v", s, d)
		}
		if err != nil {
			_ = ie.Report()
		}
	})
}
