//go:build !linux

package logcheck

import "os"

// dirNames lists dir's entries in directory order, "." and ".." first.
func dirNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	return append([]string{".", ".."}, names...), err
}
