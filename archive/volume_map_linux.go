//go:build linux

package archive

import (
	"os"
	"syscall"
)

// pageSize is the system's page size; a function, not a variable the
// package's initialisation would set in every program that links it.
func pageSize() int { return os.Getpagesize() }

// moveMap maps the volume's file from at, a page boundary, for at least
// n bytes: over the window's own addresses when they are enough (the
// kernel lets go of the old pages in the same call), else a new mapping
// in place of the old. It reports whether the window is mapped.
func (v *volume) moveMap(at, n int) bool {
	n = (n + pageSize() - 1) &^ (pageSize() - 1)
	if v.m != nil && n <= len(v.m) {
		if mapOver(v.m, v.f, at) == nil {
			v.mOff = at
			return true
		}
		// a failed mmap over a mapping may have unmapped part of it
	}
	v.unmap()
	// The mapping may run past the file's end: the bytes read are
	// checked against the size first, so its pages past the end are
	// never touched but by a file cut short under the reader, whose
	// fault ends that read.
	b, err := syscall.Mmap(int(v.f.Fd()), int64(at), n, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return false
	}
	v.m, v.mOff = b, at
	return true
}

// unmap removes the mapping.
func (v *volume) unmap() {
	if v.m != nil {
		_ = syscall.Munmap(v.m)
		v.m, v.mOff = nil, 0
	}
}
