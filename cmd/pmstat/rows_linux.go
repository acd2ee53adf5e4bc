package main

import (
	"os"
	"syscall"
	"unsafe"
)

// terminalRows is the number of lines between headers: the terminal's
// height less three when standard output is one, else def.
func terminalRows(def int) int {
	var ws struct{ Row, Col, X, Y uint16 }
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, os.Stdout.Fd(), syscall.TIOCGWINSZ, uintptr(unsafe.Pointer(&ws)))
	if errno != 0 || ws.Row == 0 {
		return def
	}
	return int(ws.Row) - 3
}
