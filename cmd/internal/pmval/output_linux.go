package pmval

import (
	"syscall"
	"unsafe"
)

// writable is whether a write of up to PIPE_BUF bytes to fd would not
// block now: poll's POLLOUT, without waiting.
func writable(fd int) bool {
	const pollOut = 0x4
	pfd := struct {
		fd      int32
		events  int16
		revents int16
	}{fd: int32(fd), events: pollOut}
	var ts syscall.Timespec
	n, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
	return errno == 0 && n == 1 && pfd.revents&pollOut != 0
}

// canPoll is whether writable answers: a handler may wait on a write
// that poll says can go on.
const canPoll = true
