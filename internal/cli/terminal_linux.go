package cli

import (
	"os"
	"syscall"
	"unsafe"
)

// IsTerminal is isatty(3): a terminal answers TCGETS. A file's mode
// cannot say it, /dev/null being a character device too.
func IsTerminal(f *os.File) bool {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
	return errno == 0
}
