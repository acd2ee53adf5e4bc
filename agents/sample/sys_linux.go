package sample

import (
	"os"
	"strconv"
	"strings"
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

// dataSize is the process's data segment in kilobytes.
func dataSize() uint32 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmData:"); ok {
			n, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 32)
			return uint32(n)
		}
	}
	return 0
}

func pid() int { return os.Getpid() }
