package main

import (
	"math/big"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// realTime is libpcp's pmtimespecToReal: the seconds and the fraction
// added in x87 long double arithmetic (a 64-bit significand), then
// rounded to a double. Differences of two such times lose what a double
// cannot hold of a time near 2^31 seconds, and pmval's rates divide by
// that difference, so a difference taken exactly gives other last digits.
func realTime(sec int64, nsec int64) float64 {
	var s, f big.Float
	f.SetPrec(64).SetInt64(nsec)
	f.Quo(&f, big.NewFloat(1e9))
	s.SetPrec(64).SetInt64(sec)
	s.Add(&s, &f)
	x, _ := s.Float64()
	return x
}

func stampReal(t pcp.Timestamp) float64 { return realTime(t.Sec, int64(t.Nsec)) }

func timeReal(t time.Time) float64 { return realTime(t.Unix(), int64(t.Nanosecond())) }
