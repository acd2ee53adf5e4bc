package archive

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"hash/crc64"
	"io"

	"github.com/ulikunitz/xz/lzma"
)

// libpcp reads an .xz file a block at a time, each block decoded whole
// or not at all: a damaged block is a hole in the content, and the
// blocks after it still read. decodeBlocks does the same for blocks of
// LZMA2 after the filters liblzma 5.4 knows (compress_xzfilter.go); a
// file whose check this reader does not compute is read as a stream
// instead (errXZFilters).

// span is a range of decompressed content that cannot be read.
type span struct{ off, end int64 }

var errXZFilters = errors.New("xz check of a kind this reader does not compute")

// errXZBlock is a block that does not decode.
var errXZBlock = errors.New("damaged xz block")

// xzCheckSize is the size of each check type's value.
func xzCheckSize(check byte) (int64, bool) {
	switch check {
	case 0:
		return 0, true
	case 1:
		return 4, true
	case 4:
		return 8, true
	case 10:
		return 32, true
	}
	return 0, false
}

func (x *xzFile) newHash() hash.Hash {
	switch x.check {
	case 1:
		return crc32.NewIEEE()
	case 4:
		return crc64.New(crc64.MakeTable(crc64.ECMA)) // built once, by hash/crc64
	case 10:
		return sha256.New()
	}
	return nil
}

// blockwise reports whether decodeBlocks can read the file: its blocks
// carry a check this reader computes. (A block whose header or filters
// liblzma refuses is a damaged block, a hole, as it is for libpcp.)
func (x *xzFile) blockwise() bool {
	_, ok := xzCheckSize(x.check)
	return ok
}

// decodeBlocks writes the content of every block to w in order, zeros
// in place of a damaged block's, and returns the damaged blocks' spans.
func (x *xzFile) decodeBlocks(w io.Writer, r io.ReaderAt) (int64, []span, error) {
	if _, ok := xzCheckSize(x.check); !ok {
		return 0, nil, errXZFilters
	}
	var n int64
	var holes []span
	zeros := make([]byte, 1<<16)
	for _, b := range x.blocks {
		got, err := x.copyBlock(w, r, b, false)
		n += got
		switch {
		case err == nil:
			continue
		case errors.Is(err, errXZFilters):
			return n, nil, err
		case !errors.Is(err, errXZBlock):
			return n, nil, err // the writer's
		}
		holes = append(holes, span{b.end - b.size, b.end})
		for got < b.size {
			k, err := w.Write(zeros[:min(int64(len(zeros)), b.size-got)])
			got += int64(k)
			n += int64(k)
			if err != nil {
				return n, nil, err
			}
		}
	}
	return n, holes, nil
}

// copyBlock decodes block b into w, checking it as liblzma does.
// With headerOnly it stops after the header, having found its filters.
func (x *xzFile) copyBlock(w io.Writer, r io.ReaderAt, b xzBlock, headerOnly bool) (int64, error) {
	var size [1]byte
	if _, err := r.ReadAt(size[:], b.at); err != nil || size[0] == 0 {
		return 0, errXZBlock
	}
	hsize := (int64(size[0]) + 1) * 4
	hdr := make([]byte, hsize)
	if _, err := r.ReadAt(hdr, b.at); err != nil {
		return 0, errXZBlock
	}
	body := hdr[:hsize-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(hdr[hsize-4:]) {
		return 0, errXZBlock
	}
	flags := body[1]
	if flags&0x3c != 0 {
		return 0, errXZBlock
	}
	p := 2
	checkSize, ok := xzCheckSize(x.check)
	if !ok {
		return 0, errXZFilters
	}
	compSize := b.unpadded - hsize - checkSize
	if compSize <= 0 {
		return 0, errXZBlock
	}
	if flags&0x40 != 0 {
		if v, ok := xzVarint(body, &p); !ok || int64(v) != compSize {
			return 0, errXZBlock
		}
	}
	if flags&0x80 != 0 {
		if v, ok := xzVarint(body, &p); !ok || int64(v) != b.size {
			return 0, errXZBlock
		}
	}
	chain, prop, ok := parseXZFilters(body, p, int(flags&3)+1)
	if !ok {
		return 0, errXZBlock
	}
	if headerOnly {
		return 0, nil
	}
	dict := int64(2|prop&1) << (prop/2 + 11)
	if prop == 40 {
		dict = 1<<32 - 1
	}
	if b.size <= xzMaxWholeBlock {
		// Decoded whole in memory, as libpcp decodes a block.
		var content []byte
		if fw, ok := w.(*fillWriter); ok && int64(cap(fw.b)-len(fw.b)) >= b.size {
			content = fw.b[len(fw.b) : len(fw.b)+int(b.size)]
		} else {
			if int64(cap(x.scratch)) < b.size {
				x.scratch = make([]byte, b.size)
			}
			content = x.scratch[:b.size]
		}
		if err := x.decodeWhole(content, r, b, hsize, compSize, checkSize, dict, chain); err != nil {
			return 0, err
		}
		if _, err := w.Write(content); err != nil {
			return 0, fmt.Errorf("%w: %w", errWrite, err)
		}
		return b.size, nil
	}
	h := x.newHash()
	var dst io.Writer = w
	if h != nil {
		dst = io.MultiWriter(w, h)
	}
	// the filters hold back the end of an instruction cut short,
	// written when the block's content has all come
	var cw *chainWriter
	if len(chain) > 0 {
		cw = chain.writer(dst)
		dst = cw
	}
	flush := func() error {
		if cw == nil {
			return nil
		}
		if err := cw.flush(); err != nil {
			return fmt.Errorf("%w: %w", errWrite, err)
		}
		return nil
	}
	if ldict := (max(dict, 4096) + 15) &^ 15; ldict <= xzMaxWindow && compSize <= xzMaxWindow {
		// Too large to hold: decoded through a window of the
		// dictionary and a chunk.
		comp := make([]byte, compSize)
		if _, err := r.ReadAt(comp, b.at+hsize); err != nil {
			return 0, errXZBlock
		}
		if err := decodeLZMA2Window(dst, comp, b.size, ldict); err != nil {
			if errors.Is(err, errWrite) {
				return 0, err
			}
			return 0, errXZBlock
		}
		if err := flush(); err != nil {
			return 0, err
		}
		if err := x.checkTail(r, b, hsize, compSize, checkSize, h); err != nil {
			return 0, err
		}
		return b.size, nil
	}
	// The dictionary need hold no more than the block's content, and a
	// header may claim up to 4 GiB for a block the index says is huge:
	// beyond xzMaxStreamDict the block is refused as damaged rather than
	// the dictionary allocated.
	dict = max(min(dict, b.size), lzma.MinDictCap)
	if dict > xzMaxStreamDict {
		return 0, errXZBlock
	}
	src := bufio.NewReaderSize(io.NewSectionReader(r, b.at+hsize, compSize), 1<<16)
	lr, err := lzma.Reader2Config{DictCap: int(dict)}.NewReader2(src)
	if err != nil {
		return 0, errXZBlock
	}
	n, err := copyCounted(dst, lr, b.size)
	if err != nil {
		if errors.Is(err, errWrite) {
			return n, err
		}
		return n, errXZBlock
	}
	if k, err := lr.Read(make([]byte, 1)); k != 0 || err != io.EOF {
		return n, errXZBlock // more content than the index says
	}
	if err := flush(); err != nil {
		return n, err
	}
	if err := x.checkTail(r, b, hsize, compSize, checkSize, h); err != nil {
		return n, err
	}
	return n, nil
}

// xzMaxWholeBlock bounds a block decoded whole into memory; larger ones
// (xz without threads writes one block for the whole file, and a hostile
// index may claim any size) stream through a bounded dictionary.
const xzMaxWholeBlock = xzMaxBlock

// xzMaxStreamDict bounds the dictionary of a block streamed through
// github.com/ulikunitz/xz: four times the largest of xz's presets (-9,
// 64 MiB); larger ones take xz's custom options, which PCP's tools never
// give, and would let a file make the reader allocate gigabytes.
const xzMaxStreamDict = 256 << 20

// xzMaxWindow bounds the dictionary and the compressed data of a larger
// block decoded through a window (xz's presets use at most 64 MiB);
// beyond it the block streams through github.com/ulikunitz/xz.
const xzMaxWindow = 64 << 20

// decodeWhole decodes block b's compressed data into content, its whole
// size, and checks the padding and the check value after it.
func (x *xzFile) decodeWhole(content []byte, r io.ReaderAt, b xzBlock, hsize, compSize, checkSize, dict int64, chain xzChain) error {
	comp := make([]byte, compSize)
	if _, err := r.ReadAt(comp, b.at+hsize); err != nil {
		return errXZBlock
	}
	// liblzma's dictionary: at least 4 KiB, a multiple of 16
	dict = (max(dict, 4096) + 15) &^ 15
	if decodeLZMA2(content, comp, dict) != nil {
		return errXZBlock
	}
	chain.undo(content)
	var h hash.Hash
	if h = x.newHash(); h != nil {
		h.Write(content)
	}
	return x.checkTail(r, b, hsize, compSize, checkSize, h)
}

// checkTail checks the block's padding and its check value against h,
// the hash of its content (nil for no check).
func (x *xzFile) checkTail(r io.ReaderAt, b xzBlock, hsize, compSize, checkSize int64, h hash.Hash) error {
	padded := (compSize + 3) &^ 3
	tail := make([]byte, padded-compSize+checkSize)
	if _, err := r.ReadAt(tail, b.at+hsize+compSize); err != nil {
		return errXZBlock
	}
	if !bytes.Equal(tail[:padded-compSize], make([]byte, padded-compSize)) {
		return errXZBlock
	}
	if h != nil {
		sum := h.Sum(nil)
		if x.check != 10 {
			// CRC32 and CRC64 are stored least significant byte first
			for i, j := 0, len(sum)-1; i < j; i, j = i+1, j-1 {
				sum[i], sum[j] = sum[j], sum[i]
			}
		}
		if !bytes.Equal(sum, tail[padded-compSize:]) {
			return errXZBlock
		}
	}
	return nil
}

// errWrite marks an error of the destination, not of the block.
var errWrite = errors.New("writing decompressed content")

// copyCounted copies exactly n bytes from src to dst; a short source
// is io.ErrUnexpectedEOF.
func copyCounted(dst io.Writer, src io.Reader, n int64) (int64, error) {
	buf := make([]byte, 1<<16)
	var done int64
	for done < n {
		k, err := src.Read(buf[:min(int64(len(buf)), n-done)])
		if k > 0 {
			if _, werr := dst.Write(buf[:k]); werr != nil {
				return done, fmt.Errorf("%w: %w", errWrite, werr)
			}
			done += int64(k)
		}
		if err == io.EOF && done < n {
			return done, io.ErrUnexpectedEOF
		}
		if err != nil && err != io.EOF {
			return done, err
		}
	}
	return done, nil
}
