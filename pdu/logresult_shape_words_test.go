package pdu

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestSameWords: the platform's masked comparison (SSE2 on amd64) gives
// the Go loop's answer for every length up to three rounds and a tail,
// with buffers at odd addresses, equal words, and one differing bit
// under the mask or outside it at every place.
func TestSameWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 29; n++ {
		for shift := range 3 {
			raw := make([]byte, n*8+shift)
			b := raw[shift:]
			tmpl := make([]uint64, n)
			mask := make([]uint64, n)
			for i := range n {
				tmpl[i] = rng.Uint64()
				mask[i] = rng.Uint64()
				binary.LittleEndian.PutUint64(b[i*8:], tmpl[i])
			}
			check := func(what string) {
				t.Helper()
				if got, want := sameWords(b, tmpl, mask), sameWordsGo(b, tmpl, mask); got != want {
					t.Fatalf("n %d shift %d %s: %#x, want %#x", n, shift, what, got, want)
				}
			}
			check("equal")
			if sameWords(b, tmpl, mask) != 0 {
				t.Fatalf("n %d: equal words differ", n)
			}
			for i := range n * 8 {
				for _, bit := range []byte{1, 0x80} {
					b[i] ^= bit
					check("one bit")
					masked := mask[i/8]>>(8*(i%8))&uint64(bit) != 0
					if (sameWords(b, tmpl, mask) != 0) != masked {
						t.Fatalf("n %d byte %d bit %#x: masked %v, differs %v", n, i, bit, masked, !masked)
					}
					b[i] ^= bit
				}
			}
		}
	}
}

// BenchmarkShapeSame compares a 41 KB record (the 100 MB archive's
// records' size) with the platform's loop and the Go loop.
func BenchmarkShapeSame(b *testing.B) {
	const n = 41528 / 8
	buf := make([]byte, n*8)
	tmpl := make([]uint64, n)
	mask := make([]uint64, n)
	for i := range mask {
		mask[i] = 0xffffffff
	}
	for name, f := range map[string]func([]byte, []uint64, []uint64) uint64{"platform": sameWords, "go": sameWordsGo} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(n * 8)
			for b.Loop() {
				if f(buf, tmpl, mask) != 0 {
					b.Fatal("differs")
				}
			}
		})
	}
}
