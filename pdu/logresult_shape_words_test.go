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

// TestChunksDiffer: the chunked comparison (AVX-512 where the CPU has
// it, and the Go loop) finds equal chunks equal for every count of
// chunks up to five, masks empty, full and random, and buffers at odd
// addresses, and one differing bit different exactly when its 4-byte
// word is under the chunk's mask.
func TestChunksDiffer(t *testing.T) {
	loops := map[string]func(b []byte, tmpl []uint64, km []uint16) bool{"go": chunksDifferGo}
	if chunked() {
		loops["platform"] = chunksDiffer
	}
	for name, differ := range loops {
		rng := rand.New(rand.NewPCG(3, 4))
		for n := 0; n <= 5; n++ {
			for shift := range 3 {
				raw := make([]byte, n*64+shift)
				b := raw[shift:]
				for i := range b {
					b[i] = byte(rng.Uint32())
				}
				km := make([]uint16, n)
				for c := range km {
					switch c % 3 {
					case 0:
						km[c] = uint16(rng.Uint32())
					case 1:
						km[c] = 0xffff
					}
				}
				tmpl := make([]uint64, n*8)
				for i := range tmpl {
					tmpl[i] = binary.LittleEndian.Uint64(b[i*8:])
				}
				if differ(b, tmpl, km) {
					t.Fatalf("%s: n %d shift %d: equal chunks differ", name, n, shift)
				}
				for i := range n * 64 {
					for _, bit := range []byte{1, 0x80} {
						b[i] ^= bit
						masked := km[i/64]&(1<<(i%64/4)) != 0
						if got := differ(b, tmpl, km); got != masked {
							t.Fatalf("%s: n %d shift %d byte %d bit %#x: masked %v, differs %v", name, n, shift, i, bit, masked, got)
						}
						b[i] ^= bit
					}
				}
			}
		}
	}
}

// BenchmarkShapeChunks compares a 41 KB record in 64-byte chunks, with
// the 100 MB archive's share of words under the mask (58%).
func BenchmarkShapeChunks(b *testing.B) {
	const n = 41528 / 64
	buf := make([]byte, n*64)
	tmpl := make([]uint64, n*8)
	km := make([]uint16, n)
	for c := range km {
		km[c] = 0x5ff5
	}
	loops := map[string]func(b []byte, tmpl []uint64, km []uint16) bool{"go": chunksDifferGo}
	if chunked() {
		loops["platform"] = chunksDiffer
	}
	for name, f := range loops {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(n * 64)
			for b.Loop() {
				if f(buf, tmpl, km) {
					b.Fatal("differs")
				}
			}
		})
	}
}
