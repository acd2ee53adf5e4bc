package pmval

import (
	"math/rand/v2"
	"testing"
)

// TestRealTime checks the integer realTime against the same roundings
// done by math/big, at the edges and on random times.
func TestRealTime(t *testing.T) {
	cases := [][2]int64{
		{0, 0}, {0, 1}, {0, 999999999}, {1, 1}, {1, 500000000},
		{1 << 31, 1}, {1<<31 - 1, 999999999}, {1700000000, 123456789},
		{1<<34 - 1, 999999999}, {1 << 34, 1}, {1 << 40, 7}, {-1, 5},
		{1514772611, 563796000}, {1101337806, 1000}, {3, 1 << 29},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200000; i++ {
		sec := rng.Int64N(1 << uint(rng.IntN(35)+1))
		nsec := rng.Int64N(1e9)
		if i%4 == 0 {
			nsec = rng.Int64N(1000) * 1000 // microsecond stamps, as v2 archives hold
		}
		cases = append(cases, [2]int64{sec, nsec})
	}
	for _, c := range cases {
		if got, want := realTime(c[0], c[1]), realTimeBig(c[0], c[1]); got != want {
			t.Fatalf("realTime(%d, %d) = %v, want %v", c[0], c[1], got, want)
		}
	}
}

func BenchmarkRealTime(b *testing.B) {
	for i := 0; i < b.N; i++ {
		realTime(1514772611+int64(i&1023), int64(i)*7919%1e9)
	}
}
