package archive

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"slices"
)

// xzFile is what the index of an .xz file says: the check its blocks
// carry, and each block's place and sizes.
type xzFile struct {
	check  byte
	blocks []xzBlock
	// scratch holds a block's content on its way to a writer, reused
	// from block to block.
	scratch []byte
}

type xzBlock struct {
	at       int64 // where the block's header starts in the file
	unpadded int64 // header, compressed data and check
	size     int64 // its content's size
	end      int64 // where its content ends in the decompressed data
}

// readXZIndex reads the index of an .xz file from its end, as libpcp
// does before it reads anything of the file. libpcp 6.0.3 opens only a
// file that is one stream, with no stream padding after it (its walk
// back through the file finds no other), so a file with more, or whose
// footer or index is missing or damaged (a truncated file), gives an
// error: libpcp cannot open it.
func readXZIndex(f *os.File) (*xzFile, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return xzIndex(f, st.Size())
}

var errXZIndex = errors.New("xz stream footer or index damaged, or not one stream")

const xzHeaderSize = 12

func xzIndex(r io.ReaderAt, size int64) (*xzFile, error) {
	x, start, err := xzStreamEnding(r, size)
	if err != nil {
		return nil, err
	}
	if start != 0 {
		return nil, errXZIndex
	}
	return x, nil
}

// xzStreamEnding reads the index of the stream that ends at end (its
// footer's last byte just before it), and where the stream starts.
func xzStreamEnding(r io.ReaderAt, end int64) (*xzFile, int64, error) {
	if end < 2*xzHeaderSize || end%4 != 0 {
		return nil, 0, errXZIndex
	}
	var foot [xzHeaderSize]byte
	if _, err := r.ReadAt(foot[:], end-xzHeaderSize); err != nil {
		return nil, 0, err
	}
	if foot[10] != 'Y' || foot[11] != 'Z' || crc32.ChecksumIEEE(foot[4:10]) != binary.LittleEndian.Uint32(foot[:4]) {
		return nil, 0, errXZIndex
	}
	indexSize := (int64(binary.LittleEndian.Uint32(foot[4:8])) + 1) * 4
	indexAt := end - xzHeaderSize - indexSize
	if indexAt < xzHeaderSize {
		return nil, 0, errXZIndex
	}
	index := make([]byte, indexSize)
	if _, err := r.ReadAt(index, indexAt); err != nil {
		return nil, 0, err
	}
	blocks, blocksSize, err := xzParseIndex(index)
	if err != nil {
		return nil, 0, err
	}
	start := indexAt - blocksSize - xzHeaderSize
	if start < 0 {
		return nil, 0, errXZIndex
	}
	var head [xzHeaderSize]byte
	if _, err := r.ReadAt(head[:], start); err != nil {
		return nil, 0, err
	}
	if !bytes.Equal(head[:6], xzMagic) || !bytes.Equal(head[6:8], foot[8:10]) ||
		crc32.ChecksumIEEE(head[6:8]) != binary.LittleEndian.Uint32(head[8:12]) {
		return nil, 0, errXZIndex
	}
	at, size := start+xzHeaderSize, int64(0)
	for i := range blocks {
		blocks[i].at = at
		at += (blocks[i].unpadded + 3) &^ 3
		size += blocks[i].size
		blocks[i].end = size
	}
	return &xzFile{check: head[7] & 0x0f, blocks: blocks}, start, nil
}

// xzStreams walks back from the end of a file of one or more .xz
// streams, each perhaps followed by stream padding (zeros, in fours),
// as xz -dc reads such a file forwards, and returns its streams in
// order.
func xzStreams(r io.ReaderAt, size int64) ([]*xzFile, error) {
	var streams []*xzFile
	end := size
	for end > 0 {
		var err error
		if end, err = xzSkipPadding(r, end); err != nil {
			return nil, err
		}
		x, start, err := xzStreamEnding(r, end)
		if err != nil {
			return nil, err
		}
		streams = append(streams, x)
		end = start
	}
	slices.Reverse(streams)
	return streams, nil
}

// xzSkipPadding returns where the zero bytes before end start; they
// must be whole groups of four and follow a stream.
func xzSkipPadding(r io.ReaderAt, end int64) (int64, error) {
	buf := make([]byte, 1<<12)
	from := end
	for end > 0 {
		n := min(end, int64(len(buf)))
		if _, err := r.ReadAt(buf[:n], end-n); err != nil {
			return 0, err
		}
		k := n
		for k > 0 && buf[k-1] == 0 {
			k--
		}
		end -= n - k
		if k > 0 {
			break
		}
	}
	// a footer ends in "YZ", so every zero counted is padding
	if end == 0 || (from-end)%4 != 0 {
		return 0, errXZIndex
	}
	return end, nil
}

// xzParseIndex reads an index: its records, and the space the stream's
// blocks take.
func xzParseIndex(b []byte) (recs []xzBlock, blocks int64, err error) {
	if len(b) < 8 || b[0] != 0 {
		return nil, 0, errXZIndex
	}
	body := b[:len(b)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, 0, errXZIndex
	}
	p := 1
	count, ok := xzVarint(body, &p)
	// each record takes at least two bytes
	if !ok || count > uint64(len(body)-p)/2 {
		return nil, 0, errXZIndex
	}
	for i := uint64(0); i < count; i++ {
		unpadded, ok1 := xzVarint(body, &p)
		size, ok2 := xzVarint(body, &p)
		if !ok1 || !ok2 || unpadded == 0 || unpadded > 1<<62 || size > 1<<62 {
			return nil, 0, errXZIndex
		}
		blocks += int64(unpadded+3) &^ 3
		if blocks < 0 {
			return nil, 0, errXZIndex
		}
		recs = append(recs, xzBlock{unpadded: int64(unpadded), size: int64(size)})
	}
	// padding to a multiple of four, all zero
	for ; p%4 != 0; p++ {
		if p >= len(body) || body[p] != 0 {
			return nil, 0, errXZIndex
		}
	}
	if p != len(body) {
		return nil, 0, errXZIndex
	}
	return recs, blocks, nil
}

// xzVarint reads the format's variable-length integer (seven bits a
// byte, least significant first, at most nine bytes) at *p.
func xzVarint(b []byte, p *int) (uint64, bool) {
	var v uint64
	for i := 0; i < 9; i++ {
		if *p >= len(b) {
			return 0, false
		}
		c := b[*p]
		*p++
		v |= uint64(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			if c == 0 && i > 0 {
				return 0, false
			}
			return v, true
		}
	}
	return 0, false
}
