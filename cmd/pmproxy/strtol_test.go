package main

import "testing"

// TestStrtol0 reads numbers as C's strtol(s, NULL, 0) does.
func TestStrtol0(t *testing.T) {
	for s, want := range map[string]int64{
		"":                     0,
		"=5":                   0,
		"5":                    5,
		" +12ab":               12,
		"-3":                   -3,
		"0x10":                 16,
		"0X1fz":                31,
		"0x":                   0,
		"010":                  8,
		"09":                   0,
		"99999999999999999999": 1<<63 - 1,
	} {
		if got := strtol0(s); got != want {
			t.Errorf("strtol0(%q) = %d, want %d", s, got, want)
		}
	}
}
