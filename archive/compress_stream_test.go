package archive

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pcp"
)

// TestContentLikeFileBytes reads archive files of every kind through
// OpenContent and checks the bytes against FileBytes (the content
// libpcp's readers see) and the size against libpcp's fstat (FileSize):
// a plain volume; .xz files of many blocks, of one block larger than
// those decoded in memory, of a damaged block (the content ends where it
// starts, the size is the index's); gzip, bzip2; a cut gzip stream and a
// cut .xz file, which do not open.
func TestContentLikeFileBytes(t *testing.T) {
	dir := t.TempDir()
	vol := testArchive(t, dir, Version3, 300) + ".0"
	plain, err := os.ReadFile(vol)
	if err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat(plain, int(xzMaxBlock/len(plain))+2)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()

	blocks := pcptest.Filter(t, plain, "xz", "-c", "--block-size=4000")
	damaged := bytes.Clone(blocks)
	x, err := xzIndex(bytes.NewReader(damaged), int64(len(damaged)))
	if err != nil || len(x.blocks) < 3 {
		t.Fatalf("xz index: %v", err)
	}
	b := x.blocks[1]
	damaged[b.at+b.unpadded/2] ^= 0x55

	for _, tc := range []struct {
		name    string
		path    string
		want    []byte
		size    int64
		wantErr bool
	}{
		{"plain", vol, plain, int64(len(plain)), false},
		{"xz blocks", write("blocks.0.xz", blocks), plain, int64(len(plain)), false},
		{"xz one large block", write("big.0.xz", pcptest.Filter(t, big, "xz", "-0", "-c")), big, int64(len(big)), false},
		{"xz damaged block", write("damaged.0.xz", damaged), plain[:x.blocks[0].end], int64(len(plain)), false},
		{"gzip", write("gz.0.gz", gz.Bytes()), plain, int64(len(plain)), false},
		{"bzip2", write("bz.0.bz2", pcptest.Filter(t, plain, "bzip2", "-c")), plain, int64(len(plain)), false},
		{"gzip cut", write("cut.0.gz", gz.Bytes()[:gz.Len()/2]), nil, 0, true},
		{"xz cut", write("cut.0.xz", blocks[:len(blocks)-8]), nil, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old, oldErr := FileBytes(tc.path)
			c, err := OpenContent(tc.path)
			size, sizeErr := FileSize(tc.path)
			if tc.wantErr {
				if err == nil || oldErr == nil || sizeErr == nil {
					t.Fatalf("opened: %v, FileBytes %v, FileSize %v", err, oldErr, sizeErr)
				}
				if !errors.Is(err, pcp.ErrLogRec) || !errors.Is(sizeErr, pcp.ErrLogRec) {
					t.Errorf("%v, %v: want PM_ERR_LOGREC", err, sizeErr)
				}
				return
			}
			if err != nil || oldErr != nil || sizeErr != nil {
				t.Fatalf("%v, FileBytes %v, FileSize %v", err, oldErr, sizeErr)
			}
			defer c.Close()
			got, err := io.ReadAll(c)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tc.want) || !bytes.Equal(got, old) {
				t.Errorf("%d bytes, FileBytes %d, want %d", len(got), len(old), len(tc.want))
			}
			if size != tc.size {
				t.Errorf("size %d, want %d", size, tc.size)
			}
		})
	}
}

// FuzzContent reads arbitrary files of each compression suffix through
// OpenContent: it opens where FileBytes does, its bytes are FileBytes',
// and FileSize gives their length (the index's size, no less, for .xz).
func FuzzContent(f *testing.F) {
	for _, name := range []string{"multiblock.xz", "kwkwk.Z"} {
		if b, err := os.ReadFile(filepath.Join("testdata", "compress", name)); err == nil {
			f.Add(b, uint8(0))
			f.Add(b, uint8(4))
		}
	}
	f.Add([]byte("not compressed"), uint8(6))
	dir := f.TempDir()
	suffixes := append(append([]string{}, decompressSuffixes...), "")
	oldVol, oldMeta := maxDecompressedVolume, maxDecompressedMeta
	maxDecompressedVolume, maxDecompressedMeta = 1<<20, 1<<20
	defer func() { maxDecompressedVolume, maxDecompressedMeta = oldVol, oldMeta }()
	f.Fuzz(func(t *testing.T, b []byte, sel uint8) {
		suffix := suffixes[int(sel)%len(suffixes)]
		if x, err := xzIndex(bytes.NewReader(b), int64(len(b))); err == nil && len(x.blocks) > 0 && x.blocks[len(x.blocks)-1].end > 1<<20 {
			// an index claiming megabytes: each reader decodes them
			// (as libpcp would), seconds an input
			t.Skip()
		}
		p := filepath.Join(dir, "a.0"+suffix)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(p)
		old, oldErr := FileBytes(p)
		c, err := OpenContent(p)
		if (err == nil) != (oldErr == nil) {
			t.Fatalf("%s: OpenContent %v, FileBytes %v", suffix, err, oldErr)
		}
		if err != nil {
			return
		}
		defer c.Close()
		got, err := io.ReadAll(c)
		if err != nil || !bytes.Equal(got, old) {
			t.Fatalf("%s: %d bytes (%v), FileBytes %d", suffix, len(got), err, len(old))
		}
		size, err := FileSize(p)
		if err != nil || size < int64(len(got)) || (suffix != ".xz" && size != int64(len(got))) {
			t.Fatalf("%s: size %d (%v) of %d bytes", suffix, size, err, len(got))
		}
	})
}

// TestFileSizeOfDevice: a plain file that is not a regular one has the
// size fstat gives it, as libpcp's __pmFstat, and is not read: FileSize
// read a volume linked to /dev/zero for ever.
func TestFileSizeOfDevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip(err)
	}
	p := filepath.Join(t.TempDir(), "a.0")
	if err := os.Symlink("/dev/zero", p); err != nil {
		t.Fatal(err)
	}
	if n, err := FileSize(p); n != 0 || err != nil {
		t.Errorf("FileSize of /dev/zero: %d, %v; want 0, as fstat gives it", n, err)
	}
}
