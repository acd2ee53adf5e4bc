package ownfile

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// ClearSocket readies path for a new Unix-domain listener. Nothing there
// is fine. A socket nothing listens on (connecting is refused) is left
// over from a process gone and is removed. A socket something accepts
// on, or might (its backlog full), is an *InUseError; a file
// of any other kind is an error too: neither is this process's to remove.
func ClearSocket(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if fi.Mode()&os.ModeSocket == 0 {
		return fmt.Errorf("%s: exists and is not a socket; left alone", path)
	}
	err = probeUnix(path)
	if err == nil {
		return &InUseError{Path: path, How: "accepts connections on it"}
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		return &InUseError{Path: path, How: fmt.Sprintf("may be listening on it (%v)", err)}
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// probeUnix connects to the Unix-domain socket path without blocking: a
// connection made means something accepts on it, ECONNREFUSED that
// nothing listens, EAGAIN a listener whose backlog is full. A non-blocking
// connect to a Unix socket never waits, so no timeout is needed; it is
// made with system calls rather than net's Dial, whose address resolution
// (DNS client and all) would otherwise be linked into every daemon agent.
func probeUnix(path string) error {
	syscall.ForkLock.RLock()
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	if err := syscall.SetNonblock(fd, true); err != nil {
		return err
	}
	return syscall.Connect(fd, &syscall.SockaddrUnix{Name: path})
}
