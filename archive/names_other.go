//go:build !linux

package archive

import (
	"os"
	"strings"
	"syscall"
)

// archiveNames lists the entries of dir whose names start with base, in
// the directory's order (names_linux.go reads them without a string for
// every entry).
func archiveNames(dir, base string) ([]string, error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	all, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return nil, err
	}
	names := all[:0]
	for _, n := range all {
		if strings.HasPrefix(n, base) {
			if len(names) >= maxArchiveFiles {
				return nil, &os.PathError{Op: "readdirent", Path: dir, Err: syscall.EFBIG}
			}
			names = append(names, n)
		}
	}
	return names, nil
}
