package archive

import (
	"io"
	"os"
	"sync"
)

// Content is one archive file's content read in order, what FileBytes
// gives, without holding all of it: a checker walking the records of a
// volume of hundreds of megabytes held it twice over (the decompressed
// copy grown by doubling, then the copy returned), 2.1 GB of resident
// memory for a 344 MB .xz volume against PCP's 75 MB. A plain file is
// read as it is; an .xz file of blocks this reader decodes one at a time
// is read a block at a time, as libpcp reads it, and ends where a
// damaged block starts (libpcp's read fails there); any other
// compressed file is decompressed first into an unlinked temporary file,
// as libpcp runs gzip -dc and the like into one, and read from it.
type Content struct {
	f    *os.File // the plain file or the decompressed copy
	left int64    // bytes of f still to read (a copy ends at its first hole)
	xz   *xzVolume
	off  int       // where in xz the next read starts
	cur  *xzCached // the block holding off, pinned
}

// OpenContent opens an archive file by its name, falling back to a
// compressed sibling as FileBytes does; a compressed file that libpcp
// cannot open (a damaged stream, a lost .xz index) fails here, with
// PM_ERR_LOGREC.
func OpenContent(path string) (*Content, error) {
	f, suffix, err := openCompressed(path)
	if err != nil {
		return nil, err
	}
	name := f.Name()
	if suffix == "" {
		return &Content{f: f, left: -1}, nil
	}
	if suffix == ".xz" {
		z, err := newXZVolume(f)
		if err != nil {
			f.Close()
			return nil, errLogRec(0, "cannot decompress "+name+": "+err.Error())
		}
		if z != nil {
			// read once, in order: a block at a time
			z.keep = 1
			return &Content{xz: z}, nil
		}
	}
	defer f.Close()
	tmp, n, holes, err := decompressTemp(f, suffix, maxDecompressedVolume)
	if err != nil {
		return nil, err
	}
	if len(holes) == 0 {
		sizes.remember(f, n)
	}
	if len(holes) > 0 {
		n = min(n, holes[0].off)
	}
	return &Content{f: tmp, left: n}, nil
}

// Read reads the content on; io.EOF at its end.
func (c *Content) Read(p []byte) (int, error) {
	if c.xz != nil {
		return c.readXZ(p)
	}
	if c.left >= 0 {
		if c.left == 0 {
			return 0, io.EOF
		}
		p = p[:min(int64(len(p)), c.left)]
	}
	n, err := c.f.Read(p)
	if c.left >= 0 {
		c.left -= int64(n)
	}
	return n, err
}

func (c *Content) readXZ(p []byte) (int, error) {
	z := c.xz
	if c.off >= z.size {
		return 0, io.EOF
	}
	i := z.find(c.off)
	if c.cur == nil || c.cur.i != i {
		z.unpin(c.cur)
		if c.cur = z.block(i); c.cur == nil {
			// a damaged block: libpcp's reads fail from here on
			c.off = z.size
			return 0, io.EOF
		}
	}
	b := z.x.blocks[i]
	n := copy(p, c.cur.data[c.off-int(b.end-b.size):])
	c.off += n
	return n, nil
}

// Close releases the file and any decompressed copy.
func (c *Content) Close() error {
	if c.xz != nil {
		c.xz.unpin(c.cur)
		c.cur = nil
		c.xz.release()
		return c.xz.f.Close()
	}
	return c.f.Close()
}

// FileSize is the size of an archive file as libpcp's __pmFstat gives
// it for the file __pmFopen opens: a plain file's size as fstat gives it
// (a device's or a pipe's is not read: /dev/zero has no end); an .xz file's
// content size as its index gives it, nothing decoded; the size of the
// decompressed copy of any other compressed file, which is decompressed
// (and counted, not kept) to find it. A file libpcp cannot open fails.
func FileSize(path string) (int64, error) {
	f, suffix, err := openCompressed(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	name := f.Name()
	switch suffix {
	case "":
		st, err := f.Stat()
		if err != nil {
			return 0, err
		}
		return st.Size(), nil
	case ".xz":
		if !readsMagic(f, xzMagic) {
			return 0, errLogRec(0, "cannot decompress "+name+": not in xz format")
		}
		x, err := readXZIndex(f)
		if err != nil {
			return 0, errLogRec(0, "cannot decompress "+name+": "+err.Error())
		}
		if n := len(x.blocks); n > 0 {
			return x.blocks[n-1].end, nil
		}
		return 0, nil
	}
	if n, ok := sizes.recall(f); ok {
		return n, nil
	}
	n, _, err := decompressTo(&limitWriter{w: io.Discard, max: maxDecompressedVolume}, f, suffix)
	if err != nil {
		return 0, errLogRec(0, "cannot decompress "+name+": "+err.Error())
	}
	sizes.remember(f, n)
	return n, nil
}

// sizes remembers the decompressed sizes of the compressed files read
// whole, by the file's identity, so that FileSize does not decompress a
// file OpenContent just did: pmlogcheck's pass 1 asks the size of every
// volume pass 0 read, and a bzip2 volume took 3.6 MB more and half a
// second again. A file changed in place has a new size or time.
var sizes decompressedSizes

type decompressedSizes struct {
	mu sync.Mutex
	m  map[sizeKey]sizeOf
}

type sizeKey struct {
	name       string
	size, time int64
}

// sizeOf is a size remembered, with the file it is of (os.SameFile).
type sizeOf struct {
	fi os.FileInfo
	n  int64
}

// maxSizes bounds the sizes remembered: an archive's files, a few times.
const maxSizes = 64

func keyOf(f *os.File) (sizeKey, os.FileInfo, bool) {
	st, err := f.Stat()
	if err != nil {
		return sizeKey{}, nil, false
	}
	return sizeKey{f.Name(), st.Size(), st.ModTime().UnixNano()}, st, true
}

func (s *decompressedSizes) remember(f *os.File, n int64) {
	k, st, ok := keyOf(f)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil || len(s.m) >= maxSizes {
		s.m = map[sizeKey]sizeOf{}
	}
	s.m[k] = sizeOf{st, n}
}

func (s *decompressedSizes) recall(f *os.File) (int64, bool) {
	k, st, ok := keyOf(f)
	if !ok {
		return 0, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[k]
	return v.n, ok && os.SameFile(v.fi, st)
}

// decompressTemp decompresses src into an unlinked temporary file,
// bounded by max bytes, and returns it with its size and the spans of
// its damaged .xz blocks (zeros in the copy). A stream that does not
// decompress is PM_ERR_LOGREC, libpcp's failed open.
func decompressTemp(src *os.File, suffix string, max int64) (*os.File, int64, []span, error) {
	tmp, err := os.CreateTemp("", "gopcp-archive-")
	if err != nil {
		return nil, 0, nil, err
	}
	os.Remove(tmp.Name())
	n, holes, err := decompressTo(&limitWriter{w: tmp, max: max}, src, suffix)
	if err != nil {
		err = errLogRec(0, "cannot decompress "+src.Name()+": "+err.Error())
	} else {
		err = tmp.Truncate(n)
	}
	if err == nil {
		_, err = tmp.Seek(0, io.SeekStart)
	}
	if err != nil {
		tmp.Close()
		return nil, 0, nil, err
	}
	return tmp, n, holes, nil
}
