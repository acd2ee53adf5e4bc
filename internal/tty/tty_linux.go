// Package tty is what the module asks of a terminal: whether a file is one
// (isatty) and turning its echo off while a secret is typed. It imports
// the standard library only, so that pmapi (its SASL console) and
// internal/cli (the tools) share one answer.
package tty

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

// IsTerminal is isatty(3): a terminal answers TCGETS. A file's mode
// cannot say it, /dev/null being a character device too.
func IsTerminal(f *os.File) bool {
	_, ok := tcget(f)
	return ok
}

// EchoOff turns the terminal's echo off and returns what turns it back
// on; on a file that is no terminal both do nothing. (libpcp also flushes
// pending input, TCSAFLUSH, for which package syscall has no request.)
func EchoOff(f *os.File) func() {
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
