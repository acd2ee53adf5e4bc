package logcheck

import (
	"os"
	"syscall"

	"github.com/gopcp/gopcp/internal/dirent"
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
		for b := buf[:n]; ; {
			name, _, rest, ok := dirent.Next(b)
			if !ok {
				break
			}
			names, b = append(names, string(name)), rest
		}
	}
}
