package series

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// insertionTop is the one-by-one insertion topIndexes replaces, kept as
// the reference for its order (NaNs and ties included).
func insertionTop(vals []float64, k int) []int {
	idx := make([]int, 0, min(k, len(vals)))
	for i, v := range vals {
		pos := len(idx)
		for pos > 0 && vals[idx[pos-1]] < v {
			pos--
		}
		if pos >= k {
			continue
		}
		idx = append(idx, 0)
		copy(idx[pos+1:], idx[pos:])
		idx[pos] = i
		if len(idx) > k {
			idx = idx[:k]
		}
	}
	return idx
}

// TestTopIndexesAsInsertion: the sorted runs give exactly the order of
// inserting one by one, for values with ties, NaNs, infinities and
// signed zeros, every k.
func TestTopIndexesAsInsertion(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	pool := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, 1, 2, -3, 5.5}
	for round := 0; round < 2000; round++ {
		n := rng.IntN(30)
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = pool[rng.IntN(len(pool))]
		}
		for k := 0; k <= n+1; k++ {
			if got, want := topIndexes(vals, k), insertionTop(vals, k); !slices.Equal(got, want) {
				t.Fatalf("topIndexes(%v, %d) = %v, insertion gives %v", vals, k, got, want)
			}
		}
	}
}
