package linux

import "encoding/binary"

func nativeU64(b []byte) uint64 { return binary.NativeEndian.Uint64(b) }

// ms converts ticks of hz to milliseconds, as PCP does (in floating point,
// truncated).
func ms(ticks, hz uint64) uint64 { return uint64(1000 * float64(ticks) / float64(hz)) }
