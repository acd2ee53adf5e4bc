package pdu

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestSameWords: each of the platform's masked comparisons (SSE2 and
// AVX2 on amd64) and the one sameWords picks give the Go loop's answer
// for every length up to three rounds of the widest loop and a tail,
// with buffers at odd addresses, equal words, and one differing bit
// under the mask or outside it at every place.
func TestSameWords(t *testing.T) {
	loops := wordLoops()
	loops["sameWords"] = sameWords
	for name, loop := range loops {
		rng := rand.New(rand.NewPCG(1, 2))
		for n := 0; n <= 63; n++ {
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
					if got, want := loop(b, tmpl, mask), sameWordsGo(b, tmpl, mask); got != want {
						t.Fatalf("%s: n %d shift %d %s: %#x, want %#x", name, n, shift, what, got, want)
					}
				}
				check("equal")
				if loop(b, tmpl, mask) != 0 {
					t.Fatalf("%s: n %d: equal words differ", name, n)
				}
				for i := range n * 8 {
					for _, bit := range []byte{1, 0x80} {
						b[i] ^= bit
						check("one bit")
						masked := mask[i/8]>>(8*(i%8))&uint64(bit) != 0
						if (loop(b, tmpl, mask) != 0) != masked {
							t.Fatalf("%s: n %d byte %d bit %#x: masked %v, differs %v", name, n, i, bit, masked, !masked)
						}
						b[i] ^= bit
					}
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
	loops := wordLoops()
	loops["go"] = sameWordsGo
	for name, f := range loops {
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
