package proc

import (
	"syscall"
	"unsafe"

	"github.com/gopcp/gopcp/internal/dirent"
)

// The agent reads tens of thousands of small files per fetch. These
// wrappers take paths as NUL-terminated byte slices the agent builds in
// a kept buffer, so that opening a file allocates nothing (the syscall
// package's string paths are copied on every call).

var atFDCWD = -100 // AT_FDCWD (a variable: negative, it is no uintptr constant)

// maxFile bounds what is read of one file (maps and environ of large
// processes are the big ones); the rest is left unread.
const maxFile = 16 << 20

// openPath opens the NUL-terminated path read-only.
func openPath(path []byte, flags int) (int, syscall.Errno) {
	return dirent.Open(path, flags|syscall.O_RDONLY)
}

// readlinkPath reads the NUL-terminated symbolic link path into buf.
func readlinkPath(path, buf []byte) (int, syscall.Errno) {
	n, _, e := syscall.Syscall6(syscall.SYS_READLINKAT, uintptr(atFDCWD), uintptr(unsafe.Pointer(&path[0])),
		uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), 0, 0)
	if e != 0 {
		return -1, e
	}
	return int(n), 0
}

// readAll reads the open fd to its end into *buf (grown as needed, up to
// maxFile), returning the bytes read. With shortEOF a read that does not
// fill the buffer is taken as the end.
func readAll(fd int, buf *[]byte, shortEOF bool) ([]byte, syscall.Errno) {
	b := (*buf)[:cap(*buf)]
	if len(b) == 0 {
		b = make([]byte, 4096)
	}
	n := 0
	for {
		if n == len(b) {
			if len(b) >= maxFile {
				break
			}
			nb := make([]byte, 2*len(b))
			copy(nb, b[:n])
			b = nb
		}
		m, err := syscall.Read(fd, b[n:])
		if err != nil {
			if err == syscall.EINTR {
				continue
			}
			*buf = b[:0]
			return nil, err.(syscall.Errno)
		}
		if m == 0 {
			break
		}
		n += m
		if shortEOF && n < len(b) {
			// A short read is the end of a procfs file made by one
			// call of the kernel (stat, status, ...; environ and
			// cmdline are read page by page to the end), and of a
			// regular file. Not asking again saves a system call a
			// file. Files of many records (maps) can read short
			// before their end, so the caller says.
			break
		}
	}
	*buf = b[:0]
	return b[:n], 0
}

// countDir counts the entries of the open directory fd other than "."
// and "..", using buf for the raw records.
func countDir(fd int, buf []byte) (int, syscall.Errno) {
	count := 0
	err := dirent.Each(fd, buf, func(name []byte, _ byte) error {
		if string(name) != "." && string(name) != ".." {
			count++
		}
		return nil
	})
	if err != nil {
		return 0, err.(syscall.Errno)
	}
	return count, 0
}

// eachPID calls fn with every all-digit name of the open directory fd as
// a number: the processes of a /proc directory, or the threads of a task
// directory. Names too long for a pid are skipped.
func eachPID(fd int, buf []byte, fn func(pid int32)) syscall.Errno {
	err := dirent.Each(fd, buf, func(name []byte, _ byte) error {
		if pid, ok := pidName(name); ok {
			fn(pid)
		}
		return nil
	})
	if err != nil {
		return err.(syscall.Errno)
	}
	return 0
}

// pidName parses a NUL-terminated directory entry name made of digits.
func pidName(name []byte) (int32, bool) {
	var v int64
	i := 0
	for ; i < len(name) && name[i] != 0; i++ {
		c := name[i]
		if c < '0' || c > '9' || i >= 10 {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if i == 0 || v > 1<<31-1 {
		return 0, false
	}
	return int32(v), true
}
