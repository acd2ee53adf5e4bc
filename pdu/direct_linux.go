package pdu

import (
	"io"
	"os"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// directStream is Direct's Stream on Linux.
type directStream struct {
	Stream
	rc syscall.RawConn

	// The call in progress of each direction, kept here so that the
	// functions handed to rc are made once.
	rp, wp          []byte
	rn, wn          int
	rerr, werr      error
	readFn, writeFn func(uintptr) bool
}

func direct(s Stream) Stream {
	rc, err := s.SyscallConn()
	if err != nil {
		return s
	}
	// A descriptor in blocking mode would block the thread and its
	// goroutine scheduler slot unseen: leave those as they are.
	nonblocking := false
	if rc.Control(func(fd uintptr) {
		flags, _, errno := syscall.RawSyscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
		nonblocking = errno == 0 && flags&syscall.O_NONBLOCK != 0
	}) != nil || !nonblocking {
		return s
	}
	d := &directStream{Stream: s, rc: rc}
	d.readFn, d.writeFn = d.read, d.write
	return d
}

// isDirect reports whether s is one of Direct's raw streams.
func isDirect(s Stream) bool {
	_, ok := s.(*directStream)
	return ok
}

// ioSync gives the race detector the ordering that a pipe or socket gives
// between a write and the read of its bytes, which Go's own I/O
// functions declare and raw system calls do not.
var ioSync atomic.Uint64

func (d *directStream) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	d.rp, d.rn, d.rerr = p, 0, nil
	err := d.rc.Read(d.readFn)
	n := d.rn
	if err == nil {
		err = d.rerr
	}
	d.rp, d.rerr = nil, nil
	if raceEnabled && n > 0 {
		ioSync.Load()
	}
	return n, err
}

// read is one attempt to read into rp; false means wait for data.
func (d *directStream) read(fd uintptr) bool {
	for {
		n, _, errno := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&d.rp[0])), uintptr(len(d.rp)))
		switch errno {
		case 0:
			d.rn = int(n)
			if n == 0 {
				d.rerr = io.EOF
			}
			return true
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		d.rerr = os.NewSyscallError("read", errno)
		return true
	}
}

func (d *directStream) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if raceEnabled {
		ioSync.Add(1)
	}
	d.wp, d.wn, d.werr = p, 0, nil
	err := d.rc.Write(d.writeFn)
	n := d.wn
	if err == nil {
		err = d.werr
	}
	d.wp, d.werr = nil, nil
	return n, err
}

// write writes as much of wp as the descriptor takes; false means wait
// until it takes more.
func (d *directStream) write(fd uintptr) bool {
	for d.wn < len(d.wp) {
		rest := d.wp[d.wn:]
		n, _, errno := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&rest[0])), uintptr(len(rest)))
		switch errno {
		case 0:
			d.wn += int(n)
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false
		default:
			d.werr = os.NewSyscallError("write", errno)
			return true
		}
	}
	return true
}
