package sample

import (
	"sync"
	"syscall"
	"unsafe"
)

// unavailWatch answers for unavailFile (see watchedFile), made on first
// use: made at package init it would be made in every tool that links
// the agent for local contexts.
var unavailWatch struct {
	once sync.Once
	w    *watchedFile
}

// unavailable says whether unavailFile exists, as PCP's agent asks
// access(2) before every request. os.Stat would allocate its answer and
// the path's copy, three allocations a request and most of what a
// steady agent allocated; the system call itself is made only when the
// file's directory or the mount table changed, or when the directory
// cannot be watched (watchedFile).
func unavailable() bool {
	unavailWatch.once.Do(func() { unavailWatch.w = newWatchedFile(unavailFile) })
	return unavailWatch.w.exists()
}

// exists says whether the file named by path, NUL-terminated, exists.
// The call is entered the runtime's way (syscall.Syscall), not raw: a
// path's lookup can block (a slow disk, FUSE, NFS), and during a raw call
// the runtime can neither hand the P to another thread nor stop the world
// for the collector. Entering it so wakes the runtime's monitor thread
// when the agent had been idle, which is why watchedFile calls it only
// when the directory changed; a cache by the directory's modification
// time would still need a stat(2) a request.
func exists(path []byte) bool {
	const atFDCWD = -100
	fd := atFDCWD
	_, _, errno := syscall.Syscall(syscall.SYS_FACCESSAT, uintptr(fd), uintptr(unsafe.Pointer(&path[0])), 0)
	return errno == 0
}
