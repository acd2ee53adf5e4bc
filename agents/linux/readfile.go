package linux

import (
	"errors"
	"io"
	"os"
)

// fileBuf reads whole files into a buffer kept between reads, so a steady
// agent does not allocate for file contents.
type fileBuf struct {
	buf []byte
}

// read returns the contents of path in b's buffer, valid until the next read.
func (b *fileBuf) read(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if cap(b.buf) < 4096 {
		b.buf = make([]byte, 0, 4096)
	}
	b.buf = b.buf[:0]
	for {
		if len(b.buf) == cap(b.buf) {
			b.buf = append(b.buf, 0)[:len(b.buf)]
		}
		n, err := f.Read(b.buf[len(b.buf):cap(b.buf)])
		b.buf = b.buf[:len(b.buf)+n]
		if errors.Is(err, io.EOF) || (err == nil && n == 0) {
			return b.buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
