package pdu

import (
	"testing"
	"time"
)

// TestParseRequestWaits: requests wait whole seconds (none: no limit),
// a traversal the exact microseconds, zero being a zero wait; huge and
// ignored values give one wait for both.
func TestParseRequestWaits(t *testing.T) {
	for _, tc := range []struct {
		v                 string
		request, traverse time.Duration
		exact             bool
	}{
		{"0", 0, 0, true},
		{"-0", 0, 0, true},
		{"", 0, 0, true},
		{"1e-7", 0, 0, true},
		{"0.0000004", 0, 0, true},
		{"0.0000006", 0, time.Microsecond, true},
		{"0.000001", 0, time.Microsecond, true},
		{"0.4", 0, 400 * time.Millisecond, true},
		{"2.5", 2 * time.Second, 2500 * time.Millisecond, true},
		{"10", 10 * time.Second, 10 * time.Second, true},
		{"1e30", 0, 0, false},
		{"abc", DefaultTimeout, DefaultTimeout, false},
		{"-1", DefaultTimeout, DefaultTimeout, false},
	} {
		request, traverse, exact := ParseRequestWaits(tc.v)
		if request != tc.request || traverse != tc.traverse || exact != tc.exact {
			t.Errorf("ParseRequestWaits(%q) = %v, %v, %v; want %v, %v, %v", tc.v, request, traverse, exact, tc.request, tc.traverse, tc.exact)
		}
	}
}

// FuzzParseRequestWaits: the exact wait is ParseRequestTimeout's, the
// requests' its whole seconds, for any value.
func FuzzParseRequestWaits(f *testing.F) {
	for _, s := range []string{"", "0", "-0", "1e-7", "2.5", "1e30", "abc", "0x10", "inf", "nan"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		request, traverse, exact := ParseRequestWaits(v)
		if d := ParseRequestTimeout(v); traverse != d || request != d.Truncate(time.Second) && request != 0 || exact && request != d.Truncate(time.Second) {
			t.Fatalf("ParseRequestWaits(%q) = %v, %v, %v; ParseRequestTimeout %v", v, request, traverse, exact, d)
		}
	})
}
