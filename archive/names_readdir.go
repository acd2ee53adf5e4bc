package archive

import (
	"os"
	"strings"
	"syscall"
)

// readdirNames is archiveNames through os.File.Readdirnames, a string
// for every entry of dir: the listing where getdents64 is not at hand,
// and the reference the Linux listing is tested against.
func readdirNames(dir, base string) ([]string, error) {
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
