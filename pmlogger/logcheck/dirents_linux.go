package logcheck

import (
	"os"

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
	err = dirent.Each(int(f.Fd()), make([]byte, 32<<10), func(name []byte, _ byte) error {
		names = append(names, string(name))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return names, nil
}
