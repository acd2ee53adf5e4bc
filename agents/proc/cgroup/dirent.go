package cgroup

import (
	"bytes"
	"encoding/binary"
	"syscall"
	"unsafe"
)

// dirent is one directory entry: its name and d_type (syscall.DT_*).
type dirent struct {
	name string
	typ  uint8
}

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
	out, buf = readDirFD(fd, buf, out)
	syscall.Close(fd)
	return out, buf, true
}

// maxDirBytes bounds what is read of one directory's entries (some
// hundreds of thousands of them): the rest is left unlisted.
const maxDirBytes = 16 << 20

// readDirFD appends the entries of the open directory fd to out. Their
// names point into buf, which is filled from its start and never written
// over within the call: when it is full a larger one replaces it, the old
// one left to the entries already made from it.
func readDirFD(fd int, buf []byte, out []dirent) ([]dirent, []byte) {
	used := 0
	for used < maxDirBytes {
		if cap(buf)-used < 4096 {
			buf = make([]byte, max(8192, 2*cap(buf)))
			used = 0
		}
		buf = buf[:cap(buf)]
		n, err := syscall.ReadDirent(fd, buf[used:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			break
		}
		out = parseDirents(buf[used:used+n], out)
		used += n
	}
	return out, buf
}

// parseDirents appends the struct linux_dirent64 records of b (inode 8
// bytes, offset 8, record length 2, type 1, NUL-terminated name) to out,
// stopping at a record whose length does not fit. The names point into b.
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
		out = append(out, dirent{name: unsafe.String(unsafe.SliceData(name), len(name)), typ: b[18]})
		b = b[reclen:]
	}
	return out
}
