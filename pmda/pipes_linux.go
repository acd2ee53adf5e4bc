package pmda

import (
	"errors"
	"os"
	"strconv"
	"syscall"
)

// reopenPipe opens the pipe f is an end of again, in mode (O_RDONLY or
// O_WRONLY), non-blocking; an error if f is not a pipe.
func reopenPipe(f *os.File, mode int) (*os.File, error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		return nil, err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return nil, errors.New("not a pipe")
	}
	fd, err := syscall.Open("/proc/self/fd/"+strconv.Itoa(int(f.Fd())), mode|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), f.Name()), nil
}
