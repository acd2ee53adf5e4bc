//go:build !amd64

package pdu

// sameWords compares the first len(mask) words of b with tmpl under mask
// (sameWordsGo; amd64 has a vector loop).
func sameWords(b []byte, tmpl, mask []uint64) uint64 { return sameWordsGo(b, tmpl, mask) }
