package archive

import (
	"os"
	"syscall"

	"github.com/gopcp/gopcp/internal/dirent"
)

// archiveNames lists the entries of dir whose names start with base, in
// the directory's order. The records are read in place from one buffer
// and only the archive's names become strings: a directory of many
// archives (PCP's QA archives, 667 files, or a pmlogger directory of a
// year's days) made a string of every name and a slice of them all,
// 46 KB and 15-18 page faults of the run's start for a small archive.
// Errors are os.Open's and Readdirnames' own (*os.PathError, "open" and
// "readdirent").
func archiveNames(dir, base string) ([]string, error) {
	fd, err := openDir(dir)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	defer syscall.Close(fd)
	buf := make([]byte, 8192)
	var names []string
	for {
		n, err := syscall.Getdents(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "readdirent", Path: dir, Err: err}
		}
		if n <= 0 {
			return names, nil
		}
		for b := buf[:n]; len(b) > 0; {
			name, _, rest, ok := dirent.Next(b)
			if !ok {
				return nil, &os.PathError{Op: "readdirent", Path: dir, Err: syscall.EIO}
			}
			b = rest
			if len(name) < len(base) || string(name[:len(base)]) != base || string(name) == "." || string(name) == ".." {
				continue
			}
			if len(names) >= maxArchiveFiles {
				return nil, &os.PathError{Op: "readdirent", Path: dir, Err: syscall.EFBIG}
			}
			names = append(names, string(name))
		}
	}
}

// openDir opens dir for reading as os.Open does (no O_DIRECTORY: a file
// that is no directory fails at the reading, as it did there).
func openDir(dir string) (int, error) {
	for {
		fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}
