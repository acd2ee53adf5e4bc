package cgroup

import (
	"bytes"
	"errors"
	"strings"
	"syscall"
	"unsafe"
)

// maxFile bounds what is read of any one file: cgroup and /proc files
// are far smaller, and a larger one is read only this far.
const maxFile = 1 << 20

// errEmpty is a file with nothing in it.
var errEmpty = errors.New("cgroup: empty file")

// read reads the file at path (already under the root) into the Source's
// buffer, which the result shares until the next read. Only a file that
// cannot be opened is an error: a read that fails after the open ends the
// data there, as fgets returning NULL ends pmdaproc's reading.
func (s *Source) read(path string) ([]byte, error) { return s.readUpTo(path, false) }

// readUpTo is read; with firstLine it stops once a newline has been read,
// which is all the one-line readers look at.
func (s *Source) readUpTo(path string, firstLine bool) ([]byte, error) {
	// Plain system calls: an os.File would register each of the many
	// small files with the runtime's poller and allocate.
	fd, errno := s.open(path, syscall.O_RDONLY|syscall.O_CLOEXEC)
	if errno != 0 {
		// The errno alone: only whether it failed is looked at, and a
		// missing file is met every fetch (v1 files on a v2 host).
		return nil, errno
	}
	defer syscall.Close(fd)
	if cap(s.buf) < 4096 {
		s.buf = make([]byte, 0, 4096)
	}
	b := s.buf[:0]
	for len(b) < maxFile {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := syscall.Read(fd, b[len(b):min(cap(b), maxFile)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			break
		}
		b = b[:len(b)+n]
		if firstLine && bytes.IndexByte(b[len(b)-n:], '\n') >= 0 {
			break
		}
	}
	s.buf = b
	return b, nil
}

// atFDCWD is AT_FDCWD (a variable: negative, it is no uintptr constant).
var atFDCWD = -100

// open opens path with flags through the Source's NUL-terminated copy of
// it: syscall.Open copies every path it is given, an allocation per file
// of every cgroup every fetch.
func (s *Source) open(path string, flags int) (int, syscall.Errno) {
	z := s.zpath(path)
	for {
		fd, _, e := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(atFDCWD), uintptr(unsafe.Pointer(&z[0])),
			uintptr(flags), 0, 0, 0)
		if e != syscall.EINTR {
			return int(fd), e
		}
	}
}

// readable is access(path, R_OK) == 0, asked as open asks.
func (s *Source) readable(path string) bool {
	z := s.zpath(path)
	_, _, e := syscall.Syscall(syscall.SYS_FACCESSAT, uintptr(atFDCWD), uintptr(unsafe.Pointer(&z[0])), rOK)
	return e == 0
}

// zpath is path NUL-terminated in s.zbuf, until the next call.
func (s *Source) zpath(path string) []byte {
	s.zbuf = append(append(s.zbuf[:0], path...), 0)
	return s.zbuf
}

// at is its parts joined in s.atBuf, a string valid until the next call
// of at: the reader it is given to opens it at once. No part may itself
// be a string at made.
func (s *Source) at(parts ...string) string {
	s.atBuf = s.atBuf[:0]
	for _, p := range parts {
		s.atBuf = append(s.atBuf, p...)
	}
	return unsafe.String(unsafe.SliceData(s.atBuf), len(s.atBuf))
}

// readLine is pmdaproc's read_oneline: the first line of a file, as fgets
// gives it with a 4096-byte buffer (newline kept).
func (s *Source) readLine(path string) (string, error) {
	b, err := s.readUpTo(path, true)
	if err != nil {
		return "", err
	}
	l, ok := firstLine(b, 4096)
	if !ok {
		return "", errEmpty
	}
	return l, nil
}

// readString is read_oneline_string: the first line without its trailing
// newlines; "" when the file cannot be read. It is old when that is what
// the file says, else a new string.
func (s *Source) readString(path, old string) string {
	l, err := s.readLine(path)
	if err != nil {
		return ""
	}
	if l = strings.TrimRight(l, "\n"); l == old {
		return old
	}
	return strings.Clone(l)
}

// none is the "no value" marker of the unsigned fields, as pmdaproc's
// (__uint64_t)-1.
const none = ^uint64(0)

// readULL is read_oneline_ull: strtoull of the first line, none when the
// file cannot be read.
func (s *Source) readULL(path string) uint64 {
	l, err := s.readLine(path)
	if err != nil {
		return none
	}
	v, _, _ := strtoull(l, 0, 0)
	return v
}

// readLL is read_oneline_ll: strtoll of the first line, or pmdaproc's
// error code (-ENOENT or -ENOMEM) as the value when the file cannot be read.
func (s *Source) readLL(path string) int64 {
	l, err := s.readLine(path)
	if errors.Is(err, errEmpty) {
		return -12 // -ENOMEM
	}
	if err != nil {
		return -2 // -ENOENT
	}
	v, _, _ := strtoll(l, 0)
	return v
}
