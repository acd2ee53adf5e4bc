//go:build linux && (amd64 || arm64 || riscv64 || loong64 || ppc64 || ppc64le)

package archive

import (
	"os"
	"syscall"
	"unsafe"
)

// mapOver maps f from offset at over the addresses of mapping m, in one
// call (MAP_FIXED), where these architectures' mmap takes the offset in
// bytes.
func mapOver(m []byte, f *os.File, at int) error {
	_, _, e := syscall.Syscall6(syscall.SYS_MMAP, uintptr(unsafe.Pointer(unsafe.SliceData(m))), uintptr(len(m)),
		syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_FIXED, f.Fd(), uintptr(at))
	if e != 0 {
		return e
	}
	return nil
}
