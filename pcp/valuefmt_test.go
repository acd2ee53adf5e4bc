package pcp

import (
	"math"
	"testing"
)

// Expected strings are C's printf output for the same format.
func TestFormatG(t *testing.T) {
	tests := []struct {
		x    float64
		prec int
		want string
	}{
		{1.5, 8, "1.5"},
		{0, 16, "0"},
		{1e6, 8, "1000000"},
		{1e8, 8, "1e+08"},
		{123456789, 16, "123456789"},
		{0.0001, 8, "0.0001"},
		{0.00001, 8, "1e-05"},
		{-2.5e-100, 16, "-2.5e-100"},
		{3.14159265358979, 16, "3.14159265358979"},
		{1.0 / 3, 8, "0.33333333"},
	}
	for _, tt := range tests {
		if got := FormatG(tt.x, tt.prec); got != tt.want {
			t.Errorf("FormatG(%v, %d) = %q, want %q", tt.x, tt.prec, got, tt.want)
		}
	}
}

// Expected strings are glibc's printf output for the same verb and
// precision.
func TestFormatFloat(t *testing.T) {
	negNaN := math.Copysign(math.NaN(), -1)
	tests := []struct {
		x    float64
		verb byte
		prec int
		want string
	}{
		{1.5, 'f', 6, "1.500000"},
		{math.Copysign(0, -1), 'f', 6, "-0.000000"},
		{math.Inf(1), 'f', 6, "inf"},
		{math.Inf(-1), 'f', 6, "-inf"},
		{math.NaN(), 'e', 6, "nan"},
		{negNaN, 'f', 6, "-nan"},
		{negNaN, 'e', 6, "-nan"},
		{12345.678, 'e', 3, "1.235e+04"},
		{1e20, 'f', 6, "100000000000000000000.000000"},
	}
	for _, tt := range tests {
		if got := FormatFloat(tt.x, tt.verb, tt.prec); got != tt.want {
			t.Errorf("FormatFloat(%v, %c, %d) = %q, want %q", tt.x, tt.verb, tt.prec, got, tt.want)
		}
	}
}
