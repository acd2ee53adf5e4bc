//go:build linux

package archive

import (
	"os"
	"syscall"
)

// pageSize is the system's page size; a function, not a variable the
// package's initialisation would set in every program that links it.
func pageSize() int { return os.Getpagesize() }

// mapVolume maps the first size bytes of f read-only, nil when it
// cannot.
func mapVolume(f *os.File, size int) []byte {
	b, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	return b
}

// release lets go of the mapping's pages from off to to.
func (v *volume) release(off, to int) {
	if to > off {
		_ = syscall.Madvise(v.m[off:to], syscall.MADV_DONTNEED)
	}
}

// unmap removes the mapping.
func (v *volume) unmap() {
	if v.m != nil {
		_ = syscall.Munmap(v.m)
		v.m = nil
	}
}
