package sigdefault

import (
	"syscall"
	"unsafe"
)

// restore is rt_sigaction(sig, {SIG_DFL}, NULL): the kernel's struct
// sigaction (handler, flags, restorer, mask) all zero is the default
// action with no flags and an empty mask, whatever the architecture's
// field order; the last argument is the size of the mask.
func restore(sig syscall.Signal) error {
	var act [4]uint64
	_, _, e := syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act)), 0, 8, 0, 0)
	if e != 0 {
		return e
	}
	return nil
}
