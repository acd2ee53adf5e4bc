package pmapi

import (
	"os"
	"syscall"
	"unsafe"
)

func tcget(f *os.File) (syscall.Termios, bool) {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
	return t, errno == 0
}

// isTerminal is isatty.
func isTerminal(f *os.File) bool {
	_, ok := tcget(f)
	return ok
}

// echoOff turns the terminal's echo off (libpcp also flushes pending
// input, TCSAFLUSH, for which package syscall has no request)
// and returns what turns it back on.
func echoOff(f *os.File) func() {
	t, ok := tcget(f)
	if !ok {
		return func() {}
	}
	set := func(t syscall.Termios) {
		syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TCSETS, uintptr(unsafe.Pointer(&t)))
	}
	quiet := t
	quiet.Lflag &^= syscall.ECHO
	set(quiet)
	return func() {
		if t, ok := tcget(f); ok {
			t.Lflag |= syscall.ECHO
			set(t)
		}
	}
}
