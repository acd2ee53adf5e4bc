package archive

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestDecompressBounded: a small file that expands far beyond the bound
// is refused once its output passes it, for a volume (to a temporary
// file) and for metadata (to memory), instead of filling either.
func TestDecompressBounded(t *testing.T) {
	var z bytes.Buffer
	gw := gzip.NewWriter(&z)
	gw.Write(make([]byte, 8<<20))
	gw.Close()
	path := filepath.Join(t.TempDir(), "bomb.meta.gz")
	if err := os.WriteFile(path, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	open := func() *os.File {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	if _, _, err := decompressTo(&limitWriter{w: io.Discard, max: 1 << 20}, open(), ".gz"); !errors.Is(err, errTooLarge) {
		t.Errorf("volume over its bound: %v, want errTooLarge", err)
	}
	if n, _, err := decompressTo(&limitWriter{w: io.Discard, max: 16 << 20}, open(), ".gz"); err != nil || n != 8<<20 {
		t.Errorf("within the bound: %d bytes, %v", n, err)
	}
	saved := maxDecompressedMeta
	maxDecompressedMeta = 1 << 20
	defer func() { maxDecompressedMeta = saved }()
	if _, err := decompress(open(), ".gz"); err == nil {
		t.Errorf("metadata over its bound was decompressed (%d compressed bytes)", z.Len())
	}
}
