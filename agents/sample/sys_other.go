//go:build !linux

package sample

// sysinfo is sample.sysinfo's value where there is no sysinfo(2): the
// 64 bytes PCP's agent sends on such systems.
func sysinfo() []byte {
	return []byte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ012345679[].")
}

// dataSize is not known here.
func dataSize() uint64 { return 0 }
