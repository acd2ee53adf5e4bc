package cgroup

import (
	"syscall"
	"unsafe"

	linuxdirent "github.com/gopcp/gopcp/internal/dirent"
)

// dirent is one directory entry: its name and d_type (syscall.DT_*).
type dirent struct {
	name string
	typ  uint8
}

// maxDirBytes bounds what is read of one directory's entries (some
// hundreds of thousands of them): the rest is left unlisted.
const maxDirBytes = 16 << 20

// maxKeptDirBuf is the largest listing buffer (and table of entries, in
// bytes) kept from one walk to the next: one large directory seen once
// should not hold megabytes for the agent's life.
const maxKeptDirBuf = 64 << 10

// minDirRead is the smallest read asked of getdents64: more than one
// record of the longest name (NAME_MAX), which a smaller read refuses.
const minDirRead = 4096

// readDirFD appends the entries of the open directory fd to out, reading
// at most limit bytes of records in all (one read may finish past it by
// less than minDirRead). Their names point into buf, which is filled from
// its start and never written over within the call: when it is full a
// larger one replaces it, the old one left to the entries already made
// from it, and what was read into it still counts against limit.
//
// It is not internal/dirent's Each, which reads every batch into the same
// buffer: the walk keeps the names after the read that found them
// without a string made for each at every fetch, so no buffer may be
// read into twice.
func readDirFD(fd int, buf []byte, out []dirent, limit int) ([]dirent, []byte) {
	used, total := 0, 0
	for total < limit {
		if cap(buf)-used < minDirRead {
			buf = make([]byte, max(8192, 2*cap(buf)))
			used = 0
		}
		buf = buf[:cap(buf)]
		end := min(cap(buf), used+max(minDirRead, limit-total))
		n, err := syscall.ReadDirent(fd, buf[used:end])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			break
		}
		out = parseDirents(buf[used:used+n], out)
		used += n
		total += n
	}
	return out, buf
}

// parseDirents appends the struct linux_dirent64 records of b to out,
// stopping at a record whose length does not fit. The names point into b.
func parseDirents(b []byte, out []dirent) []dirent {
	for {
		name, typ, rest, ok := linuxdirent.Next(b)
		if !ok {
			return out
		}
		out = append(out, dirent{name: unsafe.String(unsafe.SliceData(name), len(name)), typ: typ})
		b = rest
	}
}
