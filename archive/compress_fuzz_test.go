package archive

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/packfmt"
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
		// the walk through several streams ends, with streams that
		// start after one another or an error
		if streams, err := xzStreams(bytes.NewReader(b), int64(len(b))); err == nil {
			for i := 1; i < len(streams); i++ {
				if len(streams[i].blocks) > 0 && len(streams[i-1].blocks) > 0 &&
					streams[i].blocks[0].at <= streams[i-1].blocks[len(streams[i-1].blocks)-1].at {
					t.Fatalf("streams out of order")
				}
			}
		}
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
		if len(x.blocks) > 0 && x.blockwise() {
			if n, _, err := x.decodeBlocks(&out, bytes.NewReader(b)); err == nil && n != x.blocks[len(x.blocks)-1].end {
				t.Fatalf("%d bytes for %d", n, x.blocks[len(x.blocks)-1].end)
			}
		}
	})
}

// FuzzGzipFamily feeds what gzip -dc would read (gzip and pack members,
// .Z and LZH streams, zip files, trailing bytes) to its reader: an error or content, never a
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
	// the other formats gzip reads, alone and after a gzip member
	pack := packfmt.Encode([]byte("kernel.all.load"))
	f.Add(append(append([]byte{}, pack...), gz.Bytes()...))
	f.Add(append(append([]byte{}, gz.Bytes()...), pack...))
	f.Add(append(append([]byte{}, gz.Bytes()...), 0x1f, 0xa0, 0, 3, 0, 0, 0, 0x30, 0x80, 0x01, 0, 0))
	if b, err := os.ReadFile(filepath.Join("testdata", "compress", "small.zip")); err == nil {
		f.Add(b)
	}
	old := append([]byte{}, gz.Bytes()...)
	old[1] = oldGzipMagic2
	f.Add(append(append([]byte{}, old...), gz.Bytes()...))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := &gzipFamily{br: bufio.NewReader(bytes.NewReader(b))}
		io.Copy(io.Discard, io.LimitReader(r, 1<<24))
	})
}

// FuzzXZFilters feeds block headers' filter flags and content to the
// filter chain: a refused header or a chain that keeps the content's
// size and gives the same bytes whole and in pieces, never a panic.
func FuzzXZFilters(f *testing.F) {
	f.Add([]byte{0x04, 0x00, 0x21, 0x01, 0x10}, []byte{0xe8, 1, 2, 3, 0, 0xe8, 0xff, 0xff, 0xff, 0xff, 9}, uint8(3))
	f.Add([]byte{0x03, 0x01, 0x03, 0x0a, 0x04, 0x00, 0x00, 0x00, 0x21, 0x01, 0x16}, []byte("kernel.all.load"), uint8(1))
	f.Add([]byte{0x06, 0x04, 0x10, 0, 0, 0, 0x21, 0x01, 0x00, 0, 0}, bytes.Repeat([]byte{0x10, 0xa0, 0x0a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 4), uint8(16))
	f.Fuzz(func(t *testing.T, hdr, content []byte, piece uint8) {
		chain, _, ok := parseXZFilters(hdr, 0, 1+len(hdr)%4)
		if !ok {
			return
		}
		whole := append([]byte(nil), content...)
		chain.undo(whole)
		var out bytes.Buffer
		w := chain.writer(&out)
		for in := content; len(in) > 0; {
			k := min(int(piece)+1, len(in))
			w.Write(in[:k])
			in = in[k:]
		}
		w.flush()
		if !bytes.Equal(out.Bytes(), whole) {
			t.Fatalf("chain %v: in pieces of %d, %x; whole, %x", chain, int(piece)+1, out.Bytes(), whole)
		}
	})
}

// FuzzZip feeds the zip entry reader arbitrary files after a local
// header's signature: an error or content, never a panic, and content
// only when its CRC-32 and size agree with what the file says.
func FuzzZip(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "compress", "small.zip")); err == nil {
		f.Add(b)
	}
	f.Add(append(append([]byte{}, zipLocalMagic...), make([]byte, 40)...))
	f.Fuzz(func(t *testing.T, b []byte) {
		if !bytes.HasPrefix(b, zipLocalMagic) {
			b = append(append([]byte{}, zipLocalMagic...), b...)
		}
		got, err := decodeGzipFamily(b)
		if err == nil && len(got) > 0 && len(got) > 1032*len(b) {
			// deflate expands at most 1032 to 1
			t.Fatalf("%d bytes from %d", len(got), len(b))
		}
	})
}

// FuzzPack feeds the pack(1) reader arbitrary members: an error or
// content, never a panic, and no more than a byte out for each bit in
// (every code is at least one bit long).
func FuzzPack(f *testing.F) {
	f.Add(packfmt.Encode([]byte("kernel.all.load 1 minute\n")))
	f.Add(packfmt.Encode(bytes.Repeat([]byte{0}, 100)))
	f.Add([]byte{0x1f, 0x1e, 0, 0, 0, 1, 2, 1, 0, 'a', 'b', 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		if !bytes.HasPrefix(b, []byte{packMagic1, packMagic2}) {
			b = append([]byte{packMagic1, packMagic2}, b...)
		}
		got, _ := decodeGzipFamily(b)
		if len(got) > 8*len(b) {
			t.Fatalf("%d bytes from %d", len(got), len(b))
		}
	})
}

// FuzzLZH feeds the LZH reader arbitrary streams: an end, with or
// without an error, never a panic, and no more out than the blocks the
// input can hold allow (each block is at least 16 bits of count and
// gives at most 65535 codes of at most 256 bytes; past the end of the
// input a zero count ends the stream).
func FuzzLZH(f *testing.F) {
	for _, name := range []string{"text.lzh", "bin.lzh"} {
		if b, err := os.ReadFile(filepath.Join("testdata", "compress", name)); err == nil && len(b) > 40 {
			f.Add(append([]byte{lzhMagic1, lzhMagic2}, b[int(b[0])|int(b[1])<<8:]...))
		}
	}
	f.Add([]byte{0x1f, 0xa0, 0, 3, 0, 0, 0, 0x30, 0x80, 0x01, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		if !bytes.HasPrefix(b, []byte{lzhMagic1, lzhMagic2}) {
			b = append([]byte{lzhMagic1, lzhMagic2}, b...)
		}
		n, _ := io.Copy(io.Discard, &gzipFamily{br: bufio.NewReader(bytes.NewReader(b))})
		if limit := int64(len(b)/2+2) * 65535 * 256; n > limit {
			t.Fatalf("%d bytes from %d", n, len(b))
		}
	})
}
