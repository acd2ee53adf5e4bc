package ownfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"
)

// PIDFile is a pid file this process wrote.
type PIDFile struct {
	owned *Owned
	pid   int
}

// maxPIDFile bounds what is read of an existing pid file.
const maxPIDFile = 64

// TakePID writes pid into the pid file at path, as PCP's daemons write
// theirs (the number alone, mode 0444), unless the file already names
// another live process: then it returns an *InUseError and leaves the
// file alone. A file naming a dead process, or holding no number, is
// stale and replaced. The new file is created afresh, never written over,
// so a process holding the old one open sees no change.
func TakePID(path string, pid int) (*PIDFile, error) {
	// Two tries: a stale file removed here may be re-created by another
	// daemon starting at the same moment, whose file is then judged.
	for try := 0; ; try++ {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o444)
		if err == nil {
			_, err = f.WriteString(strconv.Itoa(pid))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			o, oerr := Own(path)
			if err == nil {
				err = oerr
			}
			if err != nil {
				if o != nil {
					o.Remove()
				}
				return nil, err
			}
			return &PIDFile{owned: o, pid: pid}, nil
		}
		if !errors.Is(err, os.ErrExist) || try > 0 {
			return nil, err
		}
		if other, ok := readPID(path); ok && other != pid && Alive(other) {
			return nil, &InUseError{Path: path, PID: other, How: "is named in it and running"}
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("stale pid file: %w", err)
		}
	}
}

// asciiSpace is the white space allowed around a pid file's number.
const asciiSpace = " \t\n\r\v\f"

// readPID is the number in a pid file, if it holds one.
func readPID(path string) (int, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	// One byte more than a pid file may hold tells a longer file, which
	// is no pid file.
	b := make([]byte, maxPIDFile+1)
	n, _ := io.ReadFull(f, b)
	if n > maxPIDFile {
		return 0, false
	}
	pid, err := strconv.Atoi(string(bytes.Trim(b[:n], asciiSpace)))
	return pid, err == nil && pid > 0
}

// Path is the pid file's name.
func (p *PIDFile) Path() string {
	if p == nil {
		return ""
	}
	return p.owned.Path()
}

// Release removes the pid file if it is still the one this process wrote
// and still names it: another daemon that has since written its own pid
// there (PCP's daemons rewrite the file in place) keeps it.
func (p *PIDFile) Release() error {
	if p == nil {
		return nil
	}
	if !p.owned.Still() {
		return nil
	}
	if pid, ok := readPID(p.owned.Path()); !ok || pid != p.pid {
		return fmt.Errorf("%s: %w", p.owned.Path(), ErrNotOwned)
	}
	return p.owned.Remove()
}
