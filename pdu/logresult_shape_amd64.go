package pdu

import (
	"sync"
	"unsafe"
)

// maskedDiff is the OR over n words of (b's word ^ tmpl[i]) & mask[i]
// (logresult_shape_amd64.s): b holds at least 8n bytes, tmpl and mask
// n words each.
//
//go:noescape
func maskedDiff(b *byte, tmpl, mask *uint64, n int) uint64

// maskedDiffAVX2 is maskedDiff in AVX2, for a CPU hasAVX2 reports.
//
//go:noescape
func maskedDiffAVX2(b *byte, tmpl, mask *uint64, n int) uint64

func hasAVX2() bool

// maskDiff reports whether any of n 64-byte chunks at b differs from
// tmpl's under its mask (logresult_shape_amd64.s, AVX-512): km holds n
// masks, a bit per 4-byte word.
//
//go:noescape
func maskDiff(b *byte, tmpl *uint64, km *uint16, n int) bool

func hasAVX512() bool

// avx2Once holds the answer of hasAVX2, asked on first use, not at
// start-up: CPUID leaves the virtual machine, which every program
// linking pdu would pay for; a zero value, so that the package's
// initialisation sets nothing.
var avx2Once struct {
	sync.Once
	ok bool
}

// avx2 reports whether the CPU has AVX2.
func avx2() bool {
	avx2Once.Do(func() { avx2Once.ok = hasAVX2() })
	return avx2Once.ok
}

// avx512Once holds the answer of hasAVX512, asked on first use as
// avx2Once's is.
var avx512Once struct {
	sync.Once
	ok bool
}

// chunked reports whether a Shape keeps its layout in 64-byte chunks
// (chunksDiffer): where the CPU has AVX-512, unless a test turned it
// off.
func chunked() bool {
	avx512Once.Do(func() { avx512Once.ok = hasAVX512() })
	return avx512Once.ok && !noChunks
}

// chunksDiffer reports whether any of the len(km) 64-byte chunks of b
// differs from tmpl's under the masks km, a bit per 4-byte word: b and
// tmpl hold at least 64 bytes a chunk.
func chunksDiffer(b []byte, tmpl []uint64, km []uint16) bool {
	n := len(km)
	if n == 0 {
		return false
	}
	_ = b[n*64-1]
	_ = tmpl[n*8-1]
	return maskDiff(unsafe.SliceData(b), unsafe.SliceData(tmpl), unsafe.SliceData(km), n)
}

// sameWords compares the first len(mask) words of b with tmpl under mask:
// the SSE2 loop took a 41 KB record in about a fifth of the time the
// four-sum Go loop took (BenchmarkShapeSame).
func sameWords(b []byte, tmpl, mask []uint64) uint64 {
	n := len(mask)
	if n == 0 {
		return 0
	}
	_ = b[n*8-1]
	_ = tmpl[n-1]
	if avx2() {
		return maskedDiffAVX2(unsafe.SliceData(b), unsafe.SliceData(tmpl), unsafe.SliceData(mask), n)
	}
	return maskedDiff(unsafe.SliceData(b), unsafe.SliceData(tmpl), unsafe.SliceData(mask), n)
}
