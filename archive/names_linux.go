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
	var names []string
	err = dirent.Each(fd, make([]byte, 8192), func(name []byte, _ byte) error {
		if len(name) < len(base) || string(name[:len(base)]) != base || string(name) == "." || string(name) == ".." {
			return nil
		}
		if len(names) >= maxArchiveFiles {
			return syscall.EFBIG
		}
		names = append(names, string(name))
		return nil
	})
	if err != nil {
		return nil, &os.PathError{Op: "readdirent", Path: dir, Err: err}
	}
	return names, nil
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
