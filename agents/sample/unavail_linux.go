package sample

import (
	"syscall"
	"unsafe"
)

// unavailPath is unavailFile as the system call takes it.
var unavailPath = []byte(unavailFile + "\x00")

// unavailable says whether unavailFile exists, as PCP's agent asks
// access(2) before every request. os.Stat would allocate its answer and
// the path's copy, three allocations a request and most of what a
// steady agent allocated.
func unavailable() bool { return exists(unavailPath) }

// exists says whether the file named by path, NUL-terminated, exists.
// The call is made raw, as a call that returns at once: entering a
// system call the runtime's way wakes its monitor thread whenever the
// agent had been idle, which it is between any two requests, and that
// wake-up (a futex call, a thread switched in) cost more than the check.
func exists(path []byte) bool {
	const atFDCWD = -100
	fd := atFDCWD
	_, _, errno := syscall.RawSyscall(syscall.SYS_FACCESSAT, uintptr(fd), uintptr(unsafe.Pointer(&path[0])), 0)
	return errno == 0
}
