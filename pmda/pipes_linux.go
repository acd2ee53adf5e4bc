package pmda

import (
	"errors"
	"os"
	"strconv"
	"syscall"
)

// reopenPipe opens the pipe f is an end of again, in mode (O_RDONLY or
// O_WRONLY), non-blocking; an error if f is not a pipe. f's descriptor is
// reached through SyscallConn, not Fd: Fd puts the file in blocking mode,
// which would take a file Go reads through its poller (one from os.Pipe,
// say) off the poller for good.
func reopenPipe(f *os.File, mode int) (*os.File, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	fd := -1
	var opErr error
	if err := rc.Control(func(from uintptr) {
		var st syscall.Stat_t
		if opErr = syscall.Fstat(int(from), &st); opErr != nil {
			return
		}
		if st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
			opErr = errors.New("not a pipe")
			return
		}
		fd, opErr = syscall.Open("/proc/self/fd/"+strconv.Itoa(int(from)), mode|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	}); err != nil {
		return nil, err
	}
	if opErr != nil {
		return nil, opErr
	}
	return os.NewFile(uintptr(fd), f.Name()), nil
}
