package cgroup

import (
	"errors"
	"os"
	"strings"
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
func (s *Source) read(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if cap(s.buf) < 4096 {
		s.buf = make([]byte, 0, 4096)
	}
	b := s.buf[:0]
	for len(b) < maxFile {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := f.Read(b[len(b):min(cap(b), maxFile)])
		b = b[:len(b)+n]
		if err != nil || n == 0 {
			break
		}
	}
	s.buf = b
	return b, nil
}

// readLine is pmdaproc's read_oneline: the first line of a file, as fgets
// gives it with a 4096-byte buffer (newline kept).
func (s *Source) readLine(path string) (string, error) {
	b, err := s.read(path)
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
// newlines; "" when the file cannot be read.
func (s *Source) readString(path string) string {
	l, err := s.readLine(path)
	if err != nil {
		return ""
	}
	return strings.TrimRight(l, "\n")
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
