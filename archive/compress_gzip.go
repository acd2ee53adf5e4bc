package archive

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"io"
)

// gzipFamily reads what "gzip -dc" reads: gzip members one after another,
// a compress(1) stream (which runs to the end of the file), pack(1)
// members (compress_pack.go), an SCO LZH stream (compress_lzh.go), or a
// zip file's first entry (compress_zip.go). Zero bytes
// after the last member are ignored, as gzip ignores them; anything else
// there makes gzip warn, and so fail for libpcp.
type gzipFamily struct {
	br      *bufio.Reader
	cur     io.Reader
	members int
	// last is set by a member after which gzip reads nothing more
	// (zip, LZH): what follows it is ignored
	last bool
}

func (g *gzipFamily) Read(p []byte) (int, error) {
	for {
		if g.cur == nil {
			if err := g.next(); err != nil {
				return 0, err
			}
		}
		n, err := g.cur.Read(p)
		if err == io.EOF {
			g.cur = nil
			if n > 0 {
				return n, nil
			}
			continue
		}
		if err == io.ErrUnexpectedEOF {
			err = errors.New("unexpected end of file")
		}
		return n, err
	}
}

// next starts the next member, or returns io.EOF after the last.
func (g *gzipFamily) next() error {
	if g.last {
		return io.EOF
	}
	magic, _ := g.br.Peek(2)
	if len(magic) < 2 {
		if g.members == 0 || len(magic) == 1 && magic[0] != 0 {
			return errors.New("unexpected end of file")
		}
		return io.EOF
	}
	g.members++
	switch {
	case magic[0] == 0x1f && (magic[1] == 0x8b || magic[1] == oldGzipMagic2):
		// gzip 0.5's magic number, which gzip still takes for its own
		var src flate.Reader = g.br
		if magic[1] == oldGzipMagic2 {
			src = &gzipMagicAs{br: g.br}
		}
		z, err := gzip.NewReader(src)
		if err != nil {
			return err
		}
		z.Multistream(false)
		g.cur = z
		return nil
	case magic[0] == lzwMagic1 && magic[1] == lzwMagic2:
		z, err := newLZWReader(g.br)
		if err != nil {
			return err
		}
		g.cur = z
		return nil
	case magic[0] == packMagic1 && magic[1] == packMagic2:
		z, err := newPackReader(g.br)
		if err != nil {
			return err
		}
		g.cur = z
		return nil
	case magic[0] == lzhMagic1 && magic[1] == lzhMagic2:
		z, err := newLZHReader(g.br)
		if err != nil {
			return err
		}
		g.cur, g.last = z, true
		return nil
	case g.members == 1 && magic[0] == 'P' && magic[1] == 'K' && g.startsWith(zipLocalMagic):
		z, err := newZipReader(g.br)
		if err != nil {
			return err
		}
		g.cur, g.last = z, true
		return nil
	case g.members == 1:
		return errors.New("not in gzip format")
	}
	for {
		b, err := g.br.ReadByte()
		if err == io.EOF {
			return io.EOF
		}
		if err != nil {
			return err
		}
		if b != 0 {
			return errors.New("trailing garbage after the compressed data")
		}
	}
}

const oldGzipMagic2 = 0x9e

// gzipMagicAs reads a member of gzip 0.5's magic number as one of
// today's, for compress/gzip, taking no byte past what it is asked for
// (so the next member starts where this one ends).
type gzipMagicAs struct {
	br   *bufio.Reader
	done int // bytes of the magic number given
}

func (m *gzipMagicAs) ReadByte() (byte, error) {
	if m.done < 2 {
		if _, err := m.br.ReadByte(); err != nil {
			return 0, err
		}
		m.done++
		return []byte{0x1f, 0x8b}[m.done-1], nil
	}
	return m.br.ReadByte()
}

func (m *gzipMagicAs) Read(p []byte) (int, error) {
	if m.done < 2 && len(p) > 0 {
		b, err := m.ReadByte()
		if err != nil {
			return 0, err
		}
		p[0] = b
		return 1, nil
	}
	return m.br.Read(p)
}

func (g *gzipFamily) startsWith(magic []byte) bool {
	b, _ := g.br.Peek(len(magic))
	return bytes.Equal(b, magic)
}
