package archive

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
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

// TestLZMAHugeDictionaryBounded: an .lzma file's header claiming a 1 GiB
// dictionary is refused before the dictionary is allocated.
func TestLZMAHugeDictionaryBounded(t *testing.T) {
	hdr := []byte{0x5d, 0x00, 0x00, 0x00, 0x40, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	path := filepath.Join(t.TempDir(), "huge.lzma")
	if err := os.WriteFile(path, append(hdr, make([]byte, 64)...), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, err = decompressTo(io.Discard, f, ".lzma")
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Error("a 1 GiB dictionary was taken")
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 300<<20 {
		t.Errorf("%d MiB allocated for a dictionary the header claimed", grew>>20)
	}
}
