package cgroup

import (
	"bytes"
	"encoding/binary"
	"syscall"
)

// dirent is one directory entry: its name and d_type (syscall.DT_*).
type dirent struct {
	name string
	typ  uint8
}

// readDir lists a directory in the order the kernel gives, with plain
// system calls (open, getdents64, close), as readdir(3) does; ok is false
// when it cannot be opened. buf is the caller's, grown as needed.
func readDir(path string, buf []byte, out []dirent) ([]dirent, []byte, bool) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	for err == syscall.EINTR {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	}
	if err != nil {
		return out, buf, false
	}
	defer syscall.Close(fd)
	if len(buf) < 8192 {
		buf = make([]byte, 8192)
	}
	for {
		n, err := syscall.ReadDirent(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			return out, buf, true
		}
		out = parseDirents(buf[:n], out)
	}
}

// parseDirents appends the struct linux_dirent64 records of b (inode 8
// bytes, offset 8, record length 2, type 1, NUL-terminated name) to out,
// stopping at a record whose length does not fit.
func parseDirents(b []byte, out []dirent) []dirent {
	for len(b) >= 19 {
		reclen := int(binary.NativeEndian.Uint16(b[16:18]))
		if reclen < 19 || reclen > len(b) {
			break
		}
		name := b[19:reclen]
		if k := bytes.IndexByte(name, 0); k >= 0 {
			name = name[:k]
		}
		out = append(out, dirent{name: string(name), typ: b[18]})
		b = b[reclen:]
	}
	return out
}
