//go:build !amd64

package pdu

// wordLoops are the masked comparisons this platform has: the Go loop
// alone.
func wordLoops() map[string]func(b []byte, tmpl, mask []uint64) uint64 {
	return map[string]func(b []byte, tmpl, mask []uint64) uint64{"platform": sameWords}
}
