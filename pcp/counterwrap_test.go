package pcp

import (
	"math"
	"testing"
)

func TestCounterDelta(t *testing.T) {
	for _, tc := range []struct {
		typ       Type
		cur, prev float64
		wrap      bool
		want      float64
		ok        bool
	}{
		{Type32, 10, 4, false, 6, true},
		{TypeU32, 4, 10, false, -6, false},
		{TypeU32, 4, 10, true, 1<<32 - 6, true},
		{Type32, -4, 10, true, 1<<32 - 14, true},
		{TypeU64, 4, 10, true, 1<<64 - 6, true},
		{Type64, 4, 10, true, 1<<64 - 6, true},
		{TypeDouble, 4, 10, true, -6, true},
		{TypeFloat, 4, 10, false, -6, false},
	} {
		got, ok := CounterDelta(tc.typ, tc.cur, tc.prev, tc.wrap)
		if got != tc.want || ok != tc.ok {
			t.Errorf("CounterDelta(%v, %v, %v, %v) = %v, %v; want %v, %v", tc.typ, tc.cur, tc.prev, tc.wrap, got, ok, tc.want, tc.ok)
		}
	}
}

func TestWrapDistance(t *testing.T) {
	// libpcp's UINT_MAX - prev + 1 + next
	if got := WrapDistance32(math.MaxUint32-5, 3); got != 9 {
		t.Errorf("WrapDistance32 = %d, want 9", got)
	}
	if got := WrapDistance64(math.MaxUint64-5, 3); got != 9 {
		t.Errorf("WrapDistance64 = %d, want 9", got)
	}
}

func TestCasts(t *testing.T) {
	// amd64's answers for what C leaves undefined: the "integer
	// indefinite" value, and unsigned conversions through 64 bits
	if got := CastInt32(0x1p31 + 100); got != math.MinInt32 {
		t.Errorf("CastInt32(2^31+100) = %d", got)
	}
	if got := CastInt32(-123.9); got != -123 {
		t.Errorf("CastInt32(-123.9) = %d", got)
	}
	if got := CastInt64(math.NaN()); got != math.MinInt64 {
		t.Errorf("CastInt64(NaN) = %d", got)
	}
	if got := CastUint32(-1); got != math.MaxUint32 {
		t.Errorf("CastUint32(-1) = %d", got)
	}
	if got := CastUint32(0x1p32 + 7); got != 7 {
		t.Errorf("CastUint32(2^32+7) = %d", got)
	}
	if got := CastUint64(0x1p63 + 4096); got != 1<<63+4096 {
		t.Errorf("CastUint64(2^63+4096) = %d", got)
	}
}
