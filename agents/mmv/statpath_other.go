//go:build !amd64

package mmv

import "syscall"

// statPath is stat(2) of a NUL-terminated path (see statpath_amd64.go for
// why the path comes so).
func statPath(path []byte, st *syscall.Stat_t) error {
	for {
		err := syscall.Stat(string(path[:len(path)-1]), st)
		if err != syscall.EINTR {
			return err
		}
	}
}
