package pcp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// numberStrInputs is a generated table: powers of ten and of two, each
// scale boundary of pmNumberStr and its neighbouring doubles, values that
// round at the second decimal, negatives of all, specials and random
// values from a fixed seed.
func numberStrInputs() []float64 {
	var vs []float64
	near := func(x float64) {
		lo, hi := x, x
		vs = append(vs, x)
		for range 3 {
			lo, hi = math.Nextafter(lo, math.Inf(-1)), math.Nextafter(hi, math.Inf(1))
			vs = append(vs, lo, hi)
		}
	}
	for e := -12; e <= 18; e++ {
		p := math.Pow(10, float64(e))
		for _, m := range []float64{1, 0.99999, 0.999995, 0.9999949999, 0.99995, 0.9999, 1.5, 2.5, 5, 9.99995, 9.999949} {
			near(m * p)
			near(-m * p)
		}
	}
	for e := -20; e <= 60; e++ {
		vs = append(vs, math.Ldexp(1, e), -math.Ldexp(1, e), math.Ldexp(3, e))
	}
	for _, b := range []float64{999995000000000, 999995000000, 999995000, 999995, 999.995, 0.005,
		-99995000000000, -99995000000, -99995000, -99995, -99.995, -0.005} {
		near(b)
	}
	// Ties at the second decimal: exact (x.125) and inexact (x.005), at
	// each scale.
	for _, f := range []float64{0.125, 0.375, 0.625, 0.875, 0.005, 0.015, 0.025, 0.045, 0.995, 0.665} {
		for _, whole := range []float64{0, 1, 2, 10, 99, 100, 998, 999} {
			for _, sc := range []float64{1, 1e3, 1e6, 1e9, 1e12} {
				near((whole + f) * sc)
				near(-(whole + f) * sc)
			}
		}
	}
	vs = append(vs, 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64,
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64)
	for _, n := range edgeFloat64NaNs {
		vs = append(vs, math.Float64frombits(n))
	}
	// Values where the extended-precision division rounds differently
	// from a double one, found by search from fixed starting points.
	for _, sc := range []float64{1e6, 1e9, 1e12} {
		found := 0
		for x := 1.125 * sc; found < 10; x = math.Nextafter(x, math.Inf(1)) {
			if extendedQuo(x, sc) != x/sc {
				vs = append(vs, x, -x)
				found++
			}
		}
	}
	// Only Uint64 is used: PCG's stream is fixed, derived helpers may not be.
	r := rand.New(rand.NewPCG(5, 6))
	for range 1000 {
		u := r.Uint64()
		vs = append(vs, (float64(u>>11)/(1<<53)-0.3)*math.Pow(10, float64(int(u%36)-18)))
	}
	for range 200 {
		vs = append(vs, math.Float64frombits(r.Uint64()))
	}
	return vs
}

func TestNumberStrMatchesLibpcp(t *testing.T) {
	var input, ours strings.Builder
	for _, v := range numberStrInputs() {
		line := fmt.Sprintf("%016x", math.Float64bits(v))
		input.WriteString(line + "\n")
		ours.WriteString(line + " -> [" + NumberStr(v) + "]\n")
	}
	checkAgainstLibpcp(t, "numberstr", input.String(), ours.String(), nil)
}

func TestNumberStrIsSevenWide(t *testing.T) {
	for _, v := range numberStrInputs() {
		if s := NumberStr(v); len(s) != 7 {
			t.Errorf("NumberStr(%v) = %q, not 7 characters", v, s)
		}
	}
}
