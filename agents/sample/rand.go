package sample

// The agent's changing values come from three pseudo-random sequences, the
// same ones PCP's agent draws from, so that a fresh agent of either kind
// goes through the same values and instances when asked the same things.

// rand48 is the 48-bit linear congruential generator of lrand48(3). GNU
// libc's starts from a state of zero when nothing has seeded it, as PCP's
// agent leaves it.
type rand48 struct{ x uint64 }

func newRand48() rand48 { return rand48{} }

// next is lrand48's next value, in [0, 2^31).
func (r *rand48) next() int64 {
	r.x = (0x5DEECE66D*r.x + 0xB) & (1<<48 - 1)
	return int64(r.x >> 17)
}

// scrambler is the platform-neutral generator that reorders
// sample.scramble.bin's instances (the ANSI C example constants).
type scrambler struct{ seed int32 }

func (s *scrambler) reseed(seed int32) { s.seed = seed }

func (s *scrambler) next() int32 {
	s.seed = int32((1103515245*int64(s.seed) + 12345) & 0x7fffffff)
	return s.seed
}

// procRand is the generator behind sample.proc's comings and goings: the
// same constants in 32-bit unsigned arithmetic, reduced modulo 2^31, and
// scaled to [0, 1].
type procRand struct{ seed uint32 }

func (p *procRand) next() float64 {
	p.seed = (1103515245*p.seed + 12345) % (1 << 31)
	return float64(p.seed) / float64(1<<31-1)
}
