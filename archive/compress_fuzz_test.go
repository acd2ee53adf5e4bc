package archive

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLZW feeds the .Z decoder arbitrary streams: it must end, with or
// without an error, and never panic.
func FuzzLZW(f *testing.F) {
	f.Add([]byte{0x1f, 0x9d, 0x90, 'a', 0, 2, 0x0c, 0x20})
	f.Add([]byte{0x1f, 0x9d, 0x8c})
	f.Add([]byte{0x1f, 0x9d, 0x10, 0xff, 0xff, 0xff, 0xff})
	if b, err := os.ReadFile(filepath.Join("testdata", "compress", "kwkwk.Z")); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := decodeLZW(t, b)
		// no code expands past the table's longest string
		if err == nil && len(b) > 3 && len(got) > (len(b)*8/9+1)<<lzwMaxBits {
			t.Fatalf("%d bytes from %d", len(got), len(b))
		}
	})
}

// FuzzXZIndex feeds the .xz index and block readers arbitrary files: an
// error, or blocks in order whose content (or holes) fills the size the
// index gives.
func FuzzXZIndex(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "compress", "multiblock.xz")); err == nil {
		f.Add(b)
	}
	f.Add(append(append([]byte{}, xzMagic...), make([]byte, 30)...))
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := xzIndex(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return
		}
		for i := 1; i < len(x.blocks); i++ {
			if x.blocks[i].end < x.blocks[i-1].end || x.blocks[i].at <= x.blocks[i-1].at {
				t.Fatalf("blocks go backwards: %v", x.blocks)
			}
		}
		// every block decodes or is a hole, never a panic
		var out bytes.Buffer
		if len(x.blocks) > 0 && x.lzma2Only(bytes.NewReader(b)) {
			if n, _, err := x.decodeBlocks(&out, bytes.NewReader(b)); err == nil && n != x.blocks[len(x.blocks)-1].end {
				t.Fatalf("%d bytes for %d", n, x.blocks[len(x.blocks)-1].end)
			}
		}
	})
}

// FuzzGzipFamily feeds what gzip -dc would read (gzip members, .Z
// streams, trailing bytes) to its reader: an error or content, never a
// panic.
func FuzzGzipFamily(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "compress", "kwkwk.Z")); err == nil {
		f.Add(b)
	}
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte("pmdumplog"))
	w.Close()
	f.Add(gz.Bytes())
	f.Add(append(append([]byte{}, gz.Bytes()...), gz.Bytes()...))
	f.Add(append(append([]byte{}, gz.Bytes()...), 0, 0, 0))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := &gzipFamily{br: bufio.NewReader(bytes.NewReader(b))}
		io.Copy(io.Discard, io.LimitReader(r, 1<<24))
	})
}
