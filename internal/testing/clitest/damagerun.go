package clitest

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"
)

// DamageRun seeds a sweep over randomly damaged archives (RandomDamage)
// and says how many damaged copies it makes: copies unless
// GOPCP_DAMAGE_COPIES says otherwise. The seed is DefaultSweepSeed, so
// that every run (CI's included) checks the same copies and a known
// difference from PCP cannot fail one run in ten; GOPCP_DAMAGE_SEED gives
// another and GOPCP_DAMAGE_SEED=random draws one from the clock, for
// exploring. It is logged so that a failing run can be repeated; stream
// keeps each sweep's draws its own.
func DamageRun(t testing.TB, copies int, stream uint64) (*rand.Rand, int) {
	t.Helper()
	seed := uint64(DefaultSweepSeed)
	if s := os.Getenv("GOPCP_DAMAGE_SEED"); s == "random" {
		seed = uint64(time.Now().UnixNano())
	} else if s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("GOPCP_DAMAGE_SEED: %v", err)
		}
		seed = v
	}
	if s := os.Getenv("GOPCP_DAMAGE_COPIES"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 {
			t.Fatalf("GOPCP_DAMAGE_COPIES=%q: want a count of copies", s)
		}
		copies = v
	}
	t.Logf("seed %d (GOPCP_DAMAGE_SEED=%d repeats this run)", seed, seed)
	return rand.New(rand.NewPCG(seed, stream)), copies
}
