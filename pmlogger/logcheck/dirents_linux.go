package logcheck

import (
	"bytes"
	"encoding/binary"
	"os"
	"syscall"
)

// dirNames lists dir's entries in the order the kernel gives them,
// "." and ".." included where they come, as scandir sees them (Go's
// Readdirnames drops those two, and pmlogcheck -vvv names every entry).
// The listing is bounded by the directory's own size.
func dirNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var names []string
	buf := make([]byte, 32<<10)
	for {
		n, err := syscall.Getdents(int(f.Fd()), buf)
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return names, nil
		}
		for b := buf[:n]; len(b) >= 19; {
			// linux_dirent64: ino, off (8 bytes each), reclen (2),
			// type (1), then the name, NUL-terminated
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				break
			}
			name := b[19:reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			names = append(names, string(name))
			b = b[reclen:]
		}
	}
}
