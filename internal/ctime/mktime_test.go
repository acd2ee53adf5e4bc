package ctime

import (
	"testing"
	"time"
)

// TestMktime checks readings in a zone with daylight time against what
// glibc 2.36's mktime answered for them (a new process each, so a zero
// guess): the hour skipped and the hour repeated with each flag, a flag
// the date does not have, fields out of range.
func TestMktime(t *testing.T) {
	loc, err := time.LoadLocation("Europe/London")
	if err != nil {
		t.Skip(err)
	}
	for _, tt := range []struct {
		year                             int64
		mon, mday, hour, min, sec, isdst int
		want                             int64
	}{
		{2025, 2, 30, 1, 30, 0, 0, 1743298200},  // skipped, standard asked
		{2025, 2, 30, 1, 30, 0, 1, 1743294600},  // skipped, daylight asked
		{2025, 2, 30, 1, 30, 0, -1, 1743298200}, // skipped, none asked
		{2025, 9, 26, 1, 30, 0, 0, 1761442200},  // repeated: the second
		{2025, 9, 26, 1, 30, 0, 1, 1761438600},  // repeated: the first
		{2026, 0, 15, 11, 30, 0, 1, 1768473000}, // daylight asked in winter
		{2026, 6, 15, 11, 30, 0, 0, 1784115000}, // standard asked in summer
		{2026, 13, 40, 25, 61, 70, 0, 1804903330},
	} {
		m := Mktime{Loc: loc}
		got, ok := m.Time(tt.year, tt.mon, tt.mday, tt.hour, tt.min, tt.sec, tt.isdst)
		if !ok || got != tt.want {
			t.Errorf("%+v: %d, %v", tt, got, ok)
		}
	}
}
