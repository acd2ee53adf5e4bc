package startpages

// growFrame is the stack GrowStack makes room for: the replays' deepest
// goroutines use 7-8 KiB (pmval's main goroutine over a 100 MB archive,
// docs/bench.md), and the runtime doubles a stack until the frame fits,
// so one copy takes it to 32 KiB.
const growFrame = 20 << 10

// GrowStack grows the calling goroutine's stack in one copy while the
// goroutine is shallow. Each later growth would copy every frame on it,
// reading each frame's function table entries and pointer maps, which
// lie all over the binary's .gopclntab, 64 KB of file at a time.
func GrowStack() {
	grow(false)
}

// grow has a frame of growFrame bytes, which its prologue makes room for
// whether or not deep is set; the frame is written only when it is.
//
//go:noinline
func grow(deep bool) byte {
	if deep {
		// declared here, so that the frame is zeroed only when used
		var buf [growFrame]byte
		for i := range buf {
			buf[i] = byte(i)
		}
		return sink(buf[:])
	}
	return 0
}

//go:noinline
func sink(b []byte) byte { return b[len(b)/2] }
