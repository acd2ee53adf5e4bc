package archive

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"
)

// How libpcp 6.0.3 reads a compressed archive file, by its suffix:
//
//	.xz          in the library, a block at a time through the stream's
//	             index (so a file whose index is lost does not open, and
//	             a damaged block is a hole the blocks after it survive)
//	.lzma        "xz -dc" into a temporary file
//	.bz2 .bz     "bzip2 -dc"
//	.gz .Z .z    "gzip -dc", which reads gzip (and gzip 0.5's magic),
//	             compress(1)'s LZW, pack(1), SCO LZH and a zip file's
//	             first entry
//
// An external program's failure (a truncated or damaged stream, trailing
// garbage for gzip and xz, though not for bzip2, which only warns) makes
// the whole file unreadable: libpcp keeps nothing of its output.
// decompressTo follows the same rules; docs/format/archive.md has them
// all, with what is not read.

var xzMagic = []byte{0xfd, '7', 'z', 'X', 'Z', 0}

// decompressTo writes the content of compressed file f to w, by the
// rules of its suffix. An .xz file that opens may have damaged blocks:
// their content is written as zeros, and holes gives where it is.
func decompressTo(w io.Writer, f *os.File, suffix string) (n int64, holes []span, err error) {
	br := bufio.NewReaderSize(f, 1<<16)
	var r io.Reader
	var x *xzFile
	switch suffix {
	case ".xz":
		if magic, _ := br.Peek(len(xzMagic)); !bytes.Equal(magic, xzMagic) {
			return 0, nil, errors.New("not in xz format")
		}
		if x, err = readXZIndex(f); err != nil {
			return 0, nil, err
		}
		if x.blockwise() {
			return x.decodeBlocks(w, f)
		}
		if r, err = xz.NewReader(br); err != nil {
			return 0, nil, err
		}
	case ".lzma":
		if magic, _ := br.Peek(len(xzMagic)); bytes.Equal(magic, xzMagic) {
			// xz -dc reads it as .xz: its streams through the block
			// reader, which knows their filters (a damaged block fails
			// the whole file, as it fails xz), or, where the walk back
			// through them fails or a check is one the block reader
			// does not compute, as a stream
			if n, ok, err := decodeXZStreams(w, f); ok {
				return n, nil, err
			}
			r, err = xz.NewReader(br)
		} else {
			// The header's dictionary size is allocated as it stands:
			// one past what the .xz reader bounds is refused.
			if h, _ := br.Peek(5); len(h) == 5 && int64(binary.LittleEndian.Uint32(h[1:])) > xzMaxStreamDict {
				return 0, nil, fmt.Errorf("lzma dictionary of %d bytes is over %d", binary.LittleEndian.Uint32(h[1:]), xzMaxStreamDict)
			}
			var lr io.Reader
			lr, err = lzma.NewReader(br)
			// xz -dc finds anything after an .lzma stream corrupt
			r = &lzmaAlone{lr, br}
		}
		if err != nil {
			return 0, nil, err
		}
	case ".bz2", ".bz":
		r = &bzip2Family{bzip2.NewReader(br)}
	case ".gz", ".Z", ".z":
		r = &gzipFamily{br: br}
	default:
		return 0, nil, fmt.Errorf("unknown compression suffix %q", suffix)
	}
	n, err = io.Copy(w, r)
	if err == nil || x == nil {
		return n, nil, err
	}
	// An .xz file of filters decodeBlocks does not know, read as a
	// stream: the damaged block is the one the decoder was in (the one
	// just finished when the failure is a check made at a block's end,
	// else the one holding the next byte), and nothing after it reads.
	atEnd := false
	for _, m := range []string{"checksum error for block", "block padding", "size for block"} {
		atEnd = atEnd || strings.Contains(err.Error(), m)
	}
	good := int64(0)
	for _, b := range x.blocks {
		if b.end > n || (atEnd && b.end == n) {
			break
		}
		good = b.end
	}
	return good, []span{{good, math.MaxInt64}}, nil
}

// decodeXZStreams writes the content of a file of .xz streams to w, as
// xz -dc does, failing at a damaged block; ok is false when the file is
// not for the block reader.
func decodeXZStreams(w io.Writer, f *os.File) (n int64, ok bool, err error) {
	st, err := f.Stat()
	if err != nil {
		return 0, true, err
	}
	streams, err := xzStreams(f, st.Size())
	if err != nil {
		return 0, false, nil
	}
	for _, x := range streams {
		if !x.blockwise() {
			return 0, false, nil
		}
	}
	for _, x := range streams {
		k, holes, err := x.decodeBlocks(w, f)
		n += k
		if err == nil && len(holes) > 0 {
			err = errXZBlock
		}
		if err != nil {
			return n, true, err
		}
	}
	return n, true, nil
}

// lzmaAlone is an .lzma stream that must end the file.
type lzmaAlone struct {
	r  io.Reader
	br *bufio.Reader
}

func (l *lzmaAlone) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	if err == io.EOF {
		if _, perr := l.br.Peek(1); perr == nil {
			return n, errors.New("data after the end of the .lzma stream")
		}
	}
	return n, err
}

// bzip2Family reads what "bzip2 -dc" reads: bzip2 streams one after
// another, then perhaps trailing bytes that are not a stream, which
// bzip2 ignores with a warning but exit status 0.
type bzip2Family struct{ r io.Reader }

func (b *bzip2Family) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	var se bzip2.StructuralError
	if errors.As(err, &se) && strings.Contains(string(se), "continuation file") {
		err = io.EOF
	}
	return n, err
}
