package archive

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"runtime"
	"testing"
)

// TestXZHugeDictionaryBounded: a block header may claim LZMA2's largest
// dictionary (4 GiB) for a block the index says is larger than can be
// held whole; the reader refuses it as a damaged block instead of
// allocating the dictionary.
func TestXZHugeDictionaryBounded(t *testing.T) {
	for _, prop := range []byte{40, 39, 34} { // 4 GiB-1, 3 GiB, 384 MiB
		// A block header: size byte, flags (one filter, no sizes), LZMA2
		// (0x21), one property byte, padding, CRC32.
		body := []byte{0, 0x00, 0x21, 0x01, prop, 0, 0, 0}
		body[0] = byte((len(body)+4)/4 - 1)
		hdr := binary.LittleEndian.AppendUint32(append([]byte(nil), body...), crc32.ChecksumIEEE(body))
		// An LZMA2 chunk that would go on and on: a dictionary reset and
		// uncompressed data, then garbage.
		data := append(hdr, bytes.Repeat([]byte{0x01, 0xff, 0xff}, 64)...)
		x := &xzFile{check: 0}
		b := xzBlock{at: 0, unpadded: int64(len(data)), size: 1 << 40, end: 1 << 40}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := x.copyBlock(io.Discard, bytes.NewReader(data), b, false)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, errXZBlock) {
			t.Errorf("property %d: %v, want a damaged block", prop, err)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 300<<20 {
			t.Errorf("property %d: %d MiB allocated for a dictionary input claimed", prop, grew>>20)
		}
	}
}
