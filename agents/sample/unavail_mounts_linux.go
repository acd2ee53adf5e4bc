package sample

import (
	"syscall"
	"unsafe"
)

// Magic numbers of the file systems (statfs(2)'s f_type) on which an
// inotify watch sees every change to a directory: local ones, whose
// changes are all made through this kernel. On a network or user-space
// file system (NFS, CIFS, 9p, virtiofs, FUSE...) another machine or
// process changes the directory unseen, so the file is asked for each
// time there, as on any type not listed.
const (
	fsTmpfs   = 0x01021994
	fsRamfs   = 0x858458f6
	fsExt     = 0xef53 // ext2, ext3 and ext4
	fsXFS     = 0x58465342
	fsBtrfs   = 0x9123683e
	fsF2FS    = 0xf2f52010
	fsOverlay = 0x794c7630 // changes made through the overlay: a container's /tmp
)

// localFS says whether a directory on the file system of type magic can
// be watched.
func localFS(magic uint32) bool {
	switch magic {
	case fsTmpfs, fsRamfs, fsExt, fsXFS, fsBtrfs, fsF2FS, fsOverlay:
		return true
	}
	return false
}

// mountsFile is where the process's mount table is read; poll(2) on it
// reports POLLPRI (and POLLERR) once after each change to the table, a
// mount or unmount anywhere in the process's mount namespace, and the
// poll itself takes the change as seen.
const mountsFile = "/proc/self/mountinfo"

// pollFD is struct pollfd.
type pollFD struct {
	fd      int32
	events  int16
	revents int16
}

const (
	pollIN  = 0x1
	pollPRI = 0x2
	pollERR = 0x8
)

// pollWatch asks, without waiting, whether the inotify descriptor has
// events queued and whether the mount table (read through mounts)
// changed since its last poll or its opening: one system call where
// reading the empty queue and polling the table would be two. The poll
// is made raw: with a zero timeout it cannot block, and entered the
// runtime's way it would wake the runtime's monitor thread (see
// watchedFile). A negative descriptor is not asked about; an error
// counts as both, so that the caller looks again.
func pollWatch(inotify, mounts int, p *[2]pollFD, zero *syscall.Timespec) (mountsChanged, events bool) {
	for {
		p[0] = pollFD{fd: int32(inotify), events: pollIN}
		p[1] = pollFD{fd: int32(mounts), events: pollPRI}
		n, _, errno := syscall.RawSyscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(p)), 2, uintptr(unsafe.Pointer(zero)), 0, 0, 0)
		switch errno {
		case 0:
			if n == 0 {
				return false, false
			}
			return p[1].revents != 0, p[0].revents != 0
		case syscall.EINTR:
			continue
		default:
			return true, true
		}
	}
}
