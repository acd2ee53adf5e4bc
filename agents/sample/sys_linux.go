package sample

import (
	"syscall"
	"unsafe"
)

// sysinfo is sample.sysinfo's value: the kernel's struct sysinfo as
// sysinfo(2) fills it, bytes as they lie in memory.
func sysinfo() []byte {
	var si syscall.Sysinfo_t
	_ = syscall.Sysinfo(&si)
	b := unsafe.Slice((*byte)(unsafe.Pointer(&si)), unsafe.Sizeof(si))
	return append([]byte(nil), b...)
}

// dataSize is where the process's data segment ends, in kilobytes: the
// program break, which brk(2) with an argument of 0 reports.
func dataSize() uint64 {
	brk, _, _ := syscall.RawSyscall(syscall.SYS_BRK, 0, 0, 0)
	return uint64(brk / 1024)
}
