//go:build !amd64

package pdu

// sameWords compares the first len(mask) words of b with tmpl under mask
// (sameWordsGo; amd64 has a vector loop).
func sameWords(b []byte, tmpl, mask []uint64) uint64 { return sameWordsGo(b, tmpl, mask) }

// chunked reports whether a Shape keeps its layout in 64-byte chunks:
// only where a vector loop compares them (amd64 with AVX-512).
func chunked() bool { return false }

// chunksDiffer is chunksDifferGo.
func chunksDiffer(b []byte, tmpl []uint64, km []uint16) bool { return chunksDifferGo(b, tmpl, km) }
