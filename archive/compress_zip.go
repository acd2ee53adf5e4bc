package archive

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
)

// gzip -dc (1.12, Debian's, which libpcp runs for .gz, .Z and .z files)
// also reads a zip file, if it starts with an entry's local header: the
// first entry only, stored or deflated, not encrypted. Its CRC-32 and
// size come from the local header, or, when its flags say so, from the
// 16 bytes after the data (a data descriptor, its signature taken as
// present and not checked). Nothing after the entry is read, except
// that another local header right after it makes gzip warn ("more than
// one entry"), and so fail for libpcp. A Zip64 entry's sizes (0xffffffff
// in the local header, as zip writes when it reads from a pipe) fail the
// size check, as they fail gzip's.

var zipLocalMagic = []byte{'P', 'K', 3, 4}

const (
	zipHeaderSize = 30
	zipStored     = 0
	zipDeflated   = 8
	zipEncrypted  = 1
	zipDescriptor = 8
)

// zipReader decodes the first entry of a zip file.
type zipReader struct {
	br      *bufio.Reader
	inflate io.Reader // nil for a stored entry
	left    int64     // a stored entry's bytes still to come
	crc     hash.Hash32
	n       uint32 // bytes out, modulo 2^32 as the sizes are
	wantCRC uint32
	wantLen uint32
	trailer bool // the CRC and size follow the data
	err     error
}

var errGzipEOF = errors.New("unexpected end of file")

// newZipReader reads the local header of the first entry; br must be
// at its signature.
func newZipReader(br *bufio.Reader) (*zipReader, error) {
	var h [zipHeaderSize]byte
	if _, err := io.ReadFull(br, h[:]); err != nil || !bytes.Equal(h[:4], zipLocalMagic) {
		return nil, errors.New("not a valid zip file")
	}
	le := binary.LittleEndian
	skip := int64(le.Uint16(h[26:])) + int64(le.Uint16(h[28:]))
	if k, _ := io.CopyN(io.Discard, br, skip); k != skip {
		return nil, errors.New("not a valid zip file")
	}
	// gzip reads the method's low byte only
	method := h[8]
	if method != zipStored && method != zipDeflated {
		return nil, errors.New("first zip entry not deflated or stored")
	}
	if h[6]&zipEncrypted != 0 {
		return nil, errors.New("encrypted zip entry")
	}
	z := &zipReader{br: br, crc: crc32.NewIEEE(), trailer: h[6]&zipDescriptor != 0}
	if !z.trailer {
		z.wantCRC, z.wantLen = le.Uint32(h[14:]), le.Uint32(h[22:])
	}
	if method == zipDeflated {
		z.inflate = flate.NewReader(br)
		return z, nil
	}
	// stored: the local header's sizes, even with a data descriptor
	if size, csize := le.Uint32(h[22:]), le.Uint32(h[18:]); size != csize {
		return nil, fmt.Errorf("zip entry's sizes differ: %d stored, %d compressed", size, csize)
	}
	z.left = int64(le.Uint32(h[22:]))
	return z, nil
}

func (z *zipReader) Read(p []byte) (int, error) {
	if z.err != nil {
		return 0, z.err
	}
	var n int
	var err error
	if z.inflate == nil {
		if z.left == 0 {
			err = io.EOF
		} else {
			n, err = z.br.Read(p[:min(int64(len(p)), z.left)])
			z.left -= int64(n)
			switch {
			case err == io.EOF && z.left > 0:
				err = errGzipEOF
			case err == io.EOF:
				err = nil
			}
		}
	} else {
		n, err = z.inflate.Read(p)
		switch {
		case err == io.ErrUnexpectedEOF:
			err = errGzipEOF
		case err != nil && err != io.EOF:
			err = fmt.Errorf("invalid compressed data--format violated: %w", err)
		}
	}
	z.crc.Write(p[:n])
	z.n += uint32(n)
	if err == io.EOF {
		err = z.finish()
	}
	z.err = err
	return n, err
}

// finish checks the entry's CRC and size, and that no other entry
// follows; io.EOF when all is well.
func (z *zipReader) finish() error {
	if z.trailer {
		var d [16]byte
		if _, err := io.ReadFull(z.br, d[:]); err != nil {
			return errGzipEOF
		}
		z.wantCRC, z.wantLen = binary.LittleEndian.Uint32(d[4:]), binary.LittleEndian.Uint32(d[12:])
	}
	if z.crc.Sum32() != z.wantCRC {
		return errors.New("invalid compressed data--crc error")
	}
	if z.n != z.wantLen {
		return errors.New("invalid compressed data--length error")
	}
	// gzip looks for a next entry only with a byte past its signature
	if next, _ := z.br.Peek(len(zipLocalMagic) + 1); len(next) == len(zipLocalMagic)+1 && bytes.Equal(next[:4], zipLocalMagic) {
		return errors.New("zip file has more than one entry")
	}
	return io.EOF
}
