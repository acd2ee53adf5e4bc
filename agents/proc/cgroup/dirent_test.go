package cgroup

import "syscall"

// readDir lists a directory in the order the kernel gives, with plain
// system calls (open, getdents64, close), as readdir(3) does; ok is false
// when it cannot be opened. buf is the caller's, grown as needed; the
// entries' names are in it.
func readDir(path string, buf []byte, out []dirent) ([]dirent, []byte, bool) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	for err == syscall.EINTR {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	}
	if err != nil {
		return out, buf, false
	}
	out, buf = readDirFD(fd, buf, out, maxDirBytes)
	syscall.Close(fd)
	return out, buf, true
}
