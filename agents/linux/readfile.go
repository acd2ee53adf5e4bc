package linux

import (
	"syscall"

	"github.com/gopcp/gopcp/internal/dirent"
)

// fileBuf reads whole files into a buffer kept between reads, and builds
// their paths in a second kept buffer, so a steady agent allocates
// nothing to read a file. Errors are the bare syscall.Errno (ENOENT for a
// missing file), which needs no allocation either.
type fileBuf struct {
	buf  []byte
	path []byte
}

// readHook, when set (by tests), replaces the file system.
var readHook func(path string) ([]byte, error)

// atFDCWD is AT_FDCWD for the *at(2) calls made here.
var atFDCWD = -100

// read returns the contents of path, valid until the next read.
func (b *fileBuf) read(path string) ([]byte, error) {
	b.path = append(b.path[:0], path...)
	return b.readPath()
}

// readJoin reads dir/rel.
func (b *fileBuf) readJoin(dir, rel string) ([]byte, error) {
	b.path = append(append(append(b.path[:0], dir...), '/'), rel...)
	return b.readPath()
}

// readBytes reads the path held in p.
func (b *fileBuf) readBytes(p []byte) ([]byte, error) {
	b.path = append(b.path[:0], p...)
	return b.readPath()
}

// readPath reads the file named by b.path.
func (b *fileBuf) readPath() ([]byte, error) {
	if readHook != nil {
		return readHook(string(b.path))
	}
	fd, err := openPath(&b.path, syscall.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	if cap(b.buf) < 4096 {
		b.buf = make([]byte, 0, 4096)
	}
	b.buf = b.buf[:0]
	for {
		if len(b.buf) == cap(b.buf) {
			b.buf = append(b.buf, 0)[:len(b.buf)]
		}
		n, err := syscall.Read(fd, b.buf[len(b.buf):cap(b.buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return b.buf, nil
		}
		b.buf = b.buf[:len(b.buf)+n]
	}
}

// openPath opens the path held in *p with openat(2), NUL-terminating it
// in place for the call: syscall.Open would copy the path into a new
// NUL-terminated slice at every call.
func openPath(p *[]byte, flags int) (int, error) { return dirent.OpenTerminated(p, flags) }
