package dirent

import (
	"syscall"
	"unsafe"
)

// atFDCWD is AT_FDCWD for openat(2) (a variable: negative, it is no
// uintptr constant).
var atFDCWD = -100

// Open opens the NUL-terminated path with openat(2), close-on-exec, for
// callers that build paths in a kept buffer: syscall.Open copies a path
// string into a new NUL-terminated slice at every call. The error is the
// bare errno, which needs no allocation.
func Open(path []byte, flags int) (int, syscall.Errno) {
	fd, _, e := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(atFDCWD), uintptr(unsafe.Pointer(&path[0])),
		uintptr(flags|syscall.O_CLOEXEC), 0, 0, 0)
	if e != 0 {
		return -1, e
	}
	return int(fd), 0
}

// OpenTerminated opens the path held in *p as Open does, NUL-terminating
// it in place for the call and leaving *p as it was.
func OpenTerminated(p *[]byte, flags int) (int, error) {
	*p = append(*p, 0)
	fd, errno := Open(*p, flags)
	*p = (*p)[:len(*p)-1]
	if errno != 0 {
		return -1, errno
	}
	return fd, nil
}
