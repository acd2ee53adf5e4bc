package pdu

import "unsafe"

// wordLoops are the masked comparisons this platform has, for
// TestSameWords and BenchmarkShapeSame: SSE2 always, AVX2 where the CPU
// has it.
func wordLoops() map[string]func(b []byte, tmpl, mask []uint64) uint64 {
	call := func(f func(b *byte, tmpl, mask *uint64, n int) uint64) func(b []byte, tmpl, mask []uint64) uint64 {
		return func(b []byte, tmpl, mask []uint64) uint64 {
			if len(mask) == 0 {
				return 0
			}
			return f(unsafe.SliceData(b), unsafe.SliceData(tmpl), unsafe.SliceData(mask), len(mask))
		}
	}
	loops := map[string]func(b []byte, tmpl, mask []uint64) uint64{"sse2": call(maskedDiff)}
	if avx2() {
		loops["avx2"] = call(maskedDiffAVX2)
	}
	return loops
}
