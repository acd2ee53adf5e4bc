package ownfile

import (
	"errors"
	"fmt"
	"syscall"
)

// ErrInUse is what every *InUseError matches with errors.Is.
var ErrInUse = errors.New("in use by another live process")

// InUseError says that a file belongs to another live process, which has
// been left alone.
type InUseError struct {
	Path string
	// PID is the process found using the file; 0 when it is not known
	// (a socket something answers on).
	PID int
	// How the process uses it: "holds it open", "is named in it",
	// "accepts connections on it".
	How string
}

func (e *InUseError) Error() string {
	who := "another process"
	if e.PID > 0 {
		who = fmt.Sprintf("process %d", e.PID)
	}
	return fmt.Sprintf("%s: %s %s; left alone", e.Path, who, e.How)
}

func (e *InUseError) Is(target error) bool { return target == ErrInUse }

// Alive reports whether pid is a live process: one that exists, even if
// this process may not signal it.
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
