package archive

import (
	"bufio"
	"io"
	"os"
	"testing"

	"github.com/ulikunitz/xz/lzma"
)

// benchBlock is the first 10 MiB block of the QA archive that pmlogger_daily
// compressed, as libpcp decodes it to open that archive.
func benchBlock(b *testing.B) ([]byte, xzBlock, *xzFile, *os.File, int64) {
	f, err := os.Open("/var/lib/pcp/testsuite/archives/pcp-pidstat-process-args.0.xz")
	if err != nil {
		b.Skip(err)
	}
	x, _ := readXZIndex(f)
	blk := x.blocks[0]
	hsize := int64(12)
	comp := make([]byte, blk.unpadded-hsize-8)
	f.ReadAt(comp, blk.at+hsize)
	return comp, blk, x, f, hsize
}

// BenchmarkLZMA2Ours decodes it with decodeLZMA2 ...
func BenchmarkLZMA2Ours(b *testing.B) {
	comp, blk, _, _, _ := benchBlock(b)
	dst := make([]byte, blk.size)
	b.SetBytes(blk.size)
	for i := 0; i < b.N; i++ {
		if err := decodeLZMA2(dst, comp, 1<<18); err != nil {
			b.Fatal(err)
		}
	}
}

// ... and BenchmarkLZMA2Ulikunitz with the xz package's streaming reader.
func BenchmarkLZMA2Ulikunitz(b *testing.B) {
	comp, blk, _, f, hsize := benchBlock(b)
	b.SetBytes(blk.size)
	for i := 0; i < b.N; i++ {
		src := bufio.NewReaderSize(io.NewSectionReader(f, blk.at+hsize, int64(len(comp))), 1<<16)
		lr, _ := lzma.Reader2Config{DictCap: 1 << 18}.NewReader2(src)
		io.Copy(io.Discard, lr)
	}
}
