package archive

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// lzhGoldens are LHA archives made by a real LHA program (jlha, see
// testdata/compress/README.md), one -lh5- member each.
var lzhGoldens = []string{"text.lzh", "bin.lzh", "20041125.0.lzh"}

// lzhMember returns the -lh5- data of a level 2 LHA archive's one
// member as gzip's LZH stream (its magic first), with the content's
// size and CRC-16 from the header.
func lzhMember(t *testing.T, name string) (stream []byte, size int, crc uint16) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "compress", name))
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	if len(b) < 26 || string(b[2:7]) != "-lh5-" || b[20] != 2 {
		t.Fatalf("%s: not a level 2 -lh5- archive", name)
	}
	hdr, packed := int(le.Uint16(b)), int(le.Uint32(b[7:]))
	if hdr+packed > len(b) {
		t.Fatalf("%s: member of %d bytes past the end", name, packed)
	}
	stream = append([]byte{lzhMagic1, lzhMagic2}, b[hdr:hdr+packed]...)
	return stream, int(le.Uint32(b[11:])), le.Uint16(b[21:])
}

// crc16 is LHA's check: CRC-16 of polynomial 0xa001, reflected.
func crc16(b []byte) uint16 {
	var c uint16
	for _, x := range b {
		c ^= uint16(x)
		for range 8 {
			if c&1 != 0 {
				c = c>>1 ^ 0xa001
			} else {
				c >>= 1
			}
		}
	}
	return c
}

// TestLZHAgainstGzip decodes LHA's -lh5- data as gzip -dc reads it in
// its LZH form: the content LHA's header gives (size and CRC-16), then
// cut short (gzip reads zeros past the end, so no error, garbage at the
// end), with bytes flipped (a bad table, or garbage), after a gzip
// member and followed by other bytes (which gzip ignores): the same
// bytes and the same failures as gzip -dc.
func TestLZHAgainstGzip(t *testing.T) {
	gz, err := exec.LookPath("gzip")
	if err != nil {
		t.Skip("gzip is not installed")
	}
	dir := t.TempDir()
	var g bytes.Buffer
	w := gzip.NewWriter(&g)
	w.Write([]byte("before"))
	w.Close()
	for _, name := range lzhGoldens {
		z, size, sum := lzhMember(t, name)
		got, err := decodeGzipFamily(z)
		if err != nil || len(got) != size || crc16(got) != sum {
			t.Fatalf("%s: %d bytes (CRC-16 %#x), %v; LHA's header says %d bytes, %#x", name, len(got), crc16(got), err, size, sum)
		}
		compareGzip(t, gz, dir, name, z, got, true)
		content := got
		compareGzip(t, gz, dir, name+" then garbage", append(append([]byte(nil), z...), "junk"...), content, true)
		compareGzip(t, gz, dir, name+" then gzip", append(append([]byte(nil), z...), g.Bytes()...), content, true)
		compareGzip(t, gz, dir, name+" after gzip", append(append([]byte(nil), g.Bytes()...), z...), nil, false)
		for _, cut := range []int{2, 3, 4, 5, 9, 20, len(z) / 3, len(z) / 2, len(z) - 3, len(z) - 1} {
			if cut < len(z) {
				compareGzip(t, gz, dir, name+" cut", z[:cut], content, false)
			}
		}
		for _, at := range []int{2, 3, 4, 5, 6, 8, 12, 16, 24, 40, len(z) / 3, len(z) / 2, len(z) - 2} {
			if at < len(z) {
				for _, x := range []byte{0x01, 0x10, 0xff} {
					b := append([]byte(nil), z...)
					b[at] ^= x
					compareGzip(t, gz, dir, name+" flipped", b, content, false)
				}
			}
		}
	}
	// streams no LHA program writes: single-code tables (a count of 0,
	// then the one code), a block count of zero at once, all zeros
	for _, b := range [][]byte{
		{0x1f, 0xa0},
		{0x1f, 0xa0, 0, 0},
		{0x1f, 0xa0, 0, 3, 0, 0, 0, 0x30, 0x80, 0x01, 0, 0},
		{0x1f, 0xa0, 0, 2, 0x00, 0x00, 0x00, 0x20, 0x80, 0x00, 0x00},
		append([]byte{0x1f, 0xa0}, bytes.Repeat([]byte{0xff}, 40)...),
		append([]byte{0x1f, 0xa0}, bytes.Repeat([]byte{0x5a, 0xa5, 0x0f}, 30)...),
	} {
		compareGzip(t, gz, dir, "made", b, nil, false)
	}
}
