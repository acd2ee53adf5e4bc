//go:build linux && !(amd64 || arm64 || riscv64 || loong64 || ppc64 || ppc64le)

package archive

import (
	"os"
	"syscall"
)

// mapOver is not done where mmap's offset is not in bytes (or its
// arguments not in registers): the window is unmapped and mapped anew.
func mapOver(m []byte, f *os.File, at int) error { return syscall.ENOSYS }
