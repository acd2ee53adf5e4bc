package pmval

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestAppendFixed compares appendFixed with strconv's 'f' (the exact
// decimal, ties to even, as glibc's printf) over values of every size
// pmval prints, exact ties and their neighbours, signs and zeros.
func TestAppendFixed(t *testing.T) {
	// Two buffers kept across the two million checks, and no t.Helper
	// (the message names the value): under -race the allocations and
	// Helper's stack walk were a third of the test's time.
	var gotBuf, wantBuf []byte
	check := func(x float64, prec int) {
		wantBuf = strconv.AppendFloat(wantBuf[:0], x, 'f', prec, 64)
		if gotBuf = appendFixed(gotBuf[:0], x, prec); !bytes.Equal(gotBuf, wantBuf) {
			t.Fatalf("%v (%x) to %d places: %q, want %q", x, math.Float64bits(x), prec, gotBuf, wantBuf)
		}
	}
	for _, x := range []float64{0, math.Copysign(0, -1), 0.5, 1.5, 2.5, 0.125, 0.375, 1e-300, 5e-324,
		0.05, 0.15, 0.25, 0.35, 9999.5, 99.995, 0.99995, 1 << 40, 1<<40 - 1, 1e12, 1e15, 1e300,
		math.Inf(1), math.Inf(-1), math.NaN(), -0.00001, -2.5, 109.95, 0.00005, 0.00015} {
		for prec := range 12 {
			check(x, prec)
			check(-x, prec)
			check(math.Nextafter(x, 0), prec)
			check(math.Nextafter(x, math.Inf(1)), prec)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2_000_000 {
		prec := rng.IntN(10)
		var x float64
		switch rng.IntN(4) {
		case 0: // any size pmval prints as a fixed number
			x = math.Ldexp(rng.Float64(), rng.IntN(60)-20)
		case 1: // an exact tie at this precision, and beside it
			k := float64(rng.Int64N(1 << 30))
			x = (k + 0.5) / pow10[prec]
			if rng.IntN(2) == 0 {
				x = math.Nextafter(x, math.Inf(int(rng.IntN(2))*2-1))
			}
		case 2: // a binary fraction: ties that are exact
			x = float64(rng.Int64N(1<<20)) / float64(uint64(1)<<rng.IntN(12))
		default: // any bits
			x = math.Float64frombits(rng.Uint64())
		}
		if rng.IntN(2) == 0 {
			x = -x
		}
		check(x, prec)
	}
}

func FuzzAppendFixed(f *testing.F) {
	f.Add(0.125, uint8(2))
	f.Add(2.5, uint8(0))
	f.Add(0.99995, uint8(4))
	f.Fuzz(func(t *testing.T, x float64, prec uint8) {
		p := int(prec % 12)
		want := strconv.FormatFloat(x, 'f', p, 64)
		if got := string(appendFixed(nil, x, p)); got != want {
			t.Fatalf("%v (%x) to %d places: %q, want %q", x, math.Float64bits(x), p, got, want)
		}
	})
}
