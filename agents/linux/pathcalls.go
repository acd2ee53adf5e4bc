package linux

import (
	"syscall"
	"unsafe"
)

// pathCalls makes the system calls that take a path name from a buffer
// kept between calls: the syscall package's wrappers copy a path string
// into a new NUL-terminated slice at every call, an allocation per mount
// and per interface at every fetch.
type pathCalls struct {
	path []byte
}

// set builds the path from parts, NUL-terminated, and returns a pointer
// to its first byte. Callers convert it to uintptr inside the Syscall
// expression itself (unsafe.Pointer's rule 4), so that the buffer is kept
// alive and in place until the call returns.
func (c *pathCalls) set(parts ...string) *byte {
	c.path = c.path[:0]
	for _, p := range parts {
		c.path = append(c.path, p...)
	}
	c.path = append(c.path, 0)
	return &c.path[0]
}

// exists says whether the path made of parts names something, as a
// successful os.Stat of it does.
func (c *pathCalls) exists(parts ...string) bool { return access(c.set(parts...)) }

// existsPath is exists for a path held in a byte slice.
func (c *pathCalls) existsPath(path []byte) bool {
	c.path = append(append(c.path[:0], path...), 0)
	return access(&c.path[0])
}

// access is faccessat(2) of the NUL-terminated path at p for existence
// (F_OK): it succeeds where stat(2) does, without filling a stat buffer.
func access(p *byte) bool {
	_, _, errno := syscall.Syscall6(syscall.SYS_FACCESSAT, uintptr(atFDCWD), uintptr(unsafe.Pointer(p)), 0, 0, 0, 0)
	return errno == 0
}

// statfs is statfs(2) of path; on the 64-bit Linux this agent builds
// for, the call fills syscall.Statfs_t as it is.
func (c *pathCalls) statfs(path string, st *syscall.Statfs_t) error {
	_, _, errno := syscall.Syscall(syscall.SYS_STATFS, uintptr(unsafe.Pointer(c.set(path))), uintptr(unsafe.Pointer(st)), 0)
	if errno != 0 {
		return errno
	}
	return nil
}
