package archive

import (
	"bytes"
	"errors"
	"io"
	"os"

	"github.com/gopcp/gopcp/internal/wire"
)

// metaStream feeds the metadata loader a window of the file instead of
// the whole of it: held whole, a 2 MB metadata file was as much of a
// replay tool's peak heap as the metadata it decodes to, where libpcp
// reads record by record. The window holds at least the record being
// read (it grows for a large one) and slides on between records; the
// decoder's offsets are the window's, base the file offset of its start.
type metaStream struct {
	r     io.Reader
	max   int // the bytes to read at most: the file's size at open
	chunk int // the least read at a time
	buf   []byte
	base  int
	eof   bool
	err   error // a read error other than the end of the file

	inDom inDomScratch // reused by the instance domain records
	names strArena     // the descriptors' names
	// texts, when not nil, is the file being read, whose help text
	// records are read again when asked for rather than copied
	texts *textSource
}

// metaChunk is the least the window reads at a time.
const metaChunk = 64 << 10

// newMetaStream reads at most size bytes of r, as the whole file was
// read at its size at open.
func newMetaStream(r io.Reader, size int) *metaStream {
	return &metaStream{r: io.LimitReader(r, int64(size)), max: size, chunk: metaChunk}
}

// limit reads at most n bytes in all (n no more than the size given to
// newMetaStream), before any is read.
func (s *metaStream) limit(n int) {
	s.r = io.LimitReader(s.r, int64(n))
	s.max = n
}

// decoder returns a decoder over the window whose errors name file
// offsets.
func (s *metaStream) decoder() wire.Decoder {
	return wire.Decoder{NewError: func(_ int32, off int, msg string) error {
		return errLogRec(int64(s.base+off), msg)
	}}
}

// at is the file offset of window offset off.
func (s *metaStream) at(off int) int { return s.base + off }

// need makes n bytes after d.Off readable in d, or as many as the file
// has: the bytes before d.Off may be dropped, so slices of the window
// taken before are no longer valid.
func (s *metaStream) need(d *wire.Decoder, n int) {
	if n <= d.Remaining() || s.eof {
		return
	}
	if d.Off > 0 && d.Off <= len(d.B) {
		k := copy(s.buf[:cap(s.buf)], d.B[d.Off:])
		s.base += d.Off
		d.B, d.Off = s.buf[:k], 0
	}
	// The file's size bounds the window whatever length a record claims.
	if want := min(d.Off+n, s.max-s.base); want > cap(s.buf) {
		nb := make([]byte, max(want, s.chunk))
		s.buf = nb[:copy(nb, d.B)]
		d.B = s.buf
	}
	for d.Remaining() < n && !s.eof && len(d.B) < cap(s.buf) {
		k, err := s.r.Read(s.buf[len(d.B):cap(s.buf)])
		d.B = s.buf[:len(d.B)+k]
		if err != nil {
			s.eof = true
			if !errors.Is(err, io.EOF) {
				s.err = err
			}
		}
	}
}

// handOn gives the window to p, for the first data volume read: what
// the loader keeps of the metadata it copies out of the window, which a
// replay that never collects would otherwise hold to its end beside the
// volume's (64 KB each).
func (s *metaStream) handOn(p *windowPool) {
	p.put(s.buf)
	s.buf = nil
}

// end is the file's length once need has met its end.
func (s *metaStream) end(d *wire.Decoder) int { return s.base + len(d.B) }

// openMeta opens a metadata file for loading: a plain regular file is
// streamed from disk, anything else read whole by openFile. head is the
// file's start (its label if it has one), size its length, done closes
// it.
func openMeta(path string) (s *metaStream, head []byte, size int, done func(), err error) {
	if name, suffix, err := compressedName(path); err == nil && suffix == "" {
		if f, err := os.Open(name); err == nil {
			st, err := f.Stat()
			if err == nil && st.Mode().IsRegular() && st.Size() == int64(int(st.Size())) {
				size := int(st.Size())
				head := make([]byte, min(size, labelV3Size+8))
				n, err := f.ReadAt(head, 0)
				if err == nil || errors.Is(err, io.EOF) {
					s := newMetaStream(f, size)
					s.texts = newTextSource(name, st)
					return s, head[:n], size, func() { f.Close() }, nil
				}
			}
			f.Close()
		}
	}
	fd, err := openFile(path)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	return newMetaStream(bytes.NewReader(fd.b), len(fd.b)), fd.b, len(fd.b), fd.close, nil
}
