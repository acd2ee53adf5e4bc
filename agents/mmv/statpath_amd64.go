package mmv

import (
	"syscall"
	"unsafe"
)

// statPath is stat(2) of a NUL-terminated path. The agent stats its
// directory before every request and each file it reads from after every
// metric; syscall.Stat and os.Stat copy the path (and os.Stat makes its
// answer) on every call, most of what a steady fetch allocated. The call
// is entered the runtime's way, not raw: a path's lookup can block.
func statPath(path []byte, st *syscall.Stat_t) error {
	const atFDCWD = -100
	fd := atFDCWD
	for {
		_, _, e := syscall.Syscall6(syscall.SYS_NEWFSTATAT, uintptr(fd), uintptr(unsafe.Pointer(&path[0])),
			uintptr(unsafe.Pointer(st)), 0, 0, 0)
		switch e {
		case 0:
			return nil
		case syscall.EINTR:
			continue
		}
		return e
	}
}
