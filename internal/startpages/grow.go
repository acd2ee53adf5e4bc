package startpages

// GrowStack grows the calling goroutine's stack, in one copy while the
// goroutine is shallow, to 32 KiB, or to 8 KiB with small set. Each later
// growth would copy every frame on it, reading each frame's function
// table entries and pointer maps, which lie all over the binary's
// .gopclntab, 64 KB of file at a time. The replays' main goroutines
// reach 7-8 KiB deep (pmval's over a 100 MB archive, docs/bench.md) and
// the runtime doubles a stack until a frame fits, so a 20 KiB frame
// takes them to 32 KiB; pmapi's interpolation coroutine reaches 3 KiB
// and 8 KiB of stack, which small gives it from the start, no more, for
// a server holding many.
func GrowStack(small bool) {
	if small {
		grow8(false)
		return
	}
	grow32(false)
}

// grow32 and grow8 have frames of 20 and 5 KiB, which their prologues
// make room for whether or not deep is set; the frames are written only
// when it is.
//
//go:noinline
func grow32(deep bool) byte {
	if deep {
		// declared here, so that the frame is zeroed only when used
		var buf [20 << 10]byte
		for i := range buf {
			buf[i] = byte(i)
		}
		return sink(buf[:])
	}
	return 0
}

//go:noinline
func grow8(deep bool) byte {
	if deep {
		var buf [5 << 10]byte
		for i := range buf {
			buf[i] = byte(i)
		}
		return sink(buf[:])
	}
	return 0
}

//go:noinline
func sink(b []byte) byte { return b[len(b)-1] }
