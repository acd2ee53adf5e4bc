package archive

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// countWriter counts what reaches it.
type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

// decompressSuffixes are the suffixes decompressTo knows, in the order
// FuzzDecompressTo's selector picks them.
var decompressSuffixes = []string{".xz", ".lzma", ".bz2", ".gz", ".Z", ".bz"}

// FuzzDecompressTo opens arbitrary bytes as a compressed file of each
// suffix the archive reader accepts, the whole path a compressed volume
// or metadata file takes (xz's index and blocks, xz -dc's stream
// fallback, .lzma alone, bzip2, the gzip family). It must end with an
// error or content, never a panic; what it reports having written is no
// more than reached the writer, the writer's bound is kept (errTooLarge
// past it), and the holes of damaged xz blocks lie in order inside the
// content.
func FuzzDecompressTo(f *testing.F) {
	for _, s := range []struct {
		file string
		sel  uint8
	}{
		{"multiblock.xz", 0}, {"multiblock.xz", 1}, {"kwkwk.Z", 4}, {"small.zip", 3},
		{"text.lzh", 3}, {"bin.lzh", 5},
	} {
		if b, err := os.ReadFile(filepath.Join("testdata", "compress", s.file)); err == nil {
			f.Add(b, s.sel)
		}
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(bytes.Repeat([]byte("pcp archive "), 200))
	zw.Close()
	f.Add(gz.Bytes(), uint8(3))
	f.Add([]byte("BZh91AY&SY"), uint8(2))
	// whole .bz2 and .lzma files, where the programs that make them are
	// installed (Go has no writer for either)
	for _, c := range []struct {
		prog []string
		sel  uint8
	}{{[]string{"bzip2", "-c"}, 2}, {[]string{"xz", "--format=lzma", "-c"}, 1}, {[]string{"xz", "-c"}, 0}} {
		if path, err := exec.LookPath(c.prog[0]); err == nil {
			cmd := exec.Command(path, c.prog[1:]...)
			cmd.Stdin = bytes.NewReader(bytes.Repeat([]byte("pcp archive volume "), 300))
			if out, err := cmd.Output(); err == nil {
				f.Add(out, c.sel)
			}
		}
	}
	// an .lzma header claiming a dictionary past the bound
	f.Add([]byte{0x5d, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0}, uint8(1))
	f.Add(append(append([]byte{}, xzMagic...), make([]byte, 30)...), uint8(0))
	dir := f.TempDir()
	const bound = 1 << 20
	f.Fuzz(func(t *testing.T, b []byte, sel uint8) {
		suffix := decompressSuffixes[int(sel)%len(decompressSuffixes)]
		name, err := os.CreateTemp(dir, "z*"+suffix)
		if err != nil {
			t.Fatal(err)
		}
		defer os.Remove(name.Name())
		defer name.Close()
		if _, err := name.Write(b); err != nil {
			t.Fatal(err)
		}
		if _, err := name.Seek(0, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		var got countWriter
		n, holes, err := decompressTo(&limitWriter{w: &got, max: bound}, name, suffix)
		if got.n > bound {
			t.Fatalf("%d bytes passed a bound of %d", got.n, bound)
		}
		if err != nil {
			return
		}
		if n < 0 || n > got.n {
			t.Fatalf("%s: reported %d bytes, %d written", suffix, n, got.n)
		}
		prev := int64(0)
		for _, h := range holes {
			if h.off < prev || h.end <= h.off || h.off > n {
				t.Fatalf("%s: holes %v out of order or outside %d bytes", suffix, holes, n)
			}
			prev = h.end
		}
	})
}

// FuzzLZMA2Window decodes arbitrary LZMA2 data both ways the block reader
// can: whole into a buffer of the content's size (decodeLZMA2) and
// through a sliding window of a small dictionary (decodeLZMA2Window, the
// path of blocks too large to hold). The two must agree: both fail, or
// both give the same content of exactly the size asked for.
func FuzzLZMA2Window(f *testing.F) {
	f.Add([]byte{0x01, 0x00, 0x02, 'a', 'b', 'c', 0x00}, uint16(3), uint8(0))
	f.Add([]byte{0xE0, 0x00, 0x05, 0x00, 0x06, 0x5D, 0x00, 0x30, 0x98, 0x88, 0x00, 0x00}, uint16(6), uint8(1))
	// an uncompressed chunk, then one that repeats from the dictionary
	f.Add(append(append([]byte{0x01, 0x0f, 0xff}, bytes.Repeat([]byte("0123456789abcdef"), 256)...), 0x00), uint16(4096), uint8(0))
	f.Add([]byte{0x00}, uint16(0), uint8(2))
	f.Fuzz(func(t *testing.T, src []byte, size uint16, dictSel uint8) {
		dict := int64(4096) << (dictSel % 5)
		whole := make([]byte, size)
		errWhole := decodeLZMA2(whole, src, dict)
		var win bytes.Buffer
		errWin := decodeLZMA2Window(&win, src, int64(size), dict)
		if (errWhole == nil) != (errWin == nil) {
			t.Fatalf("size %d dict %d: whole %v, window %v", size, dict, errWhole, errWin)
		}
		if errWin != nil {
			if !errors.Is(errWin, errLZMA2) || !errors.Is(errWhole, errLZMA2) {
				t.Fatalf("errors %v, %v: want errLZMA2", errWhole, errWin)
			}
			return
		}
		if !bytes.Equal(win.Bytes(), whole) {
			t.Fatalf("size %d dict %d: window's content differs from the whole decode", size, dict)
		}
	})
}
