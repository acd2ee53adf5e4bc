package ownfile

import (
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"time"
)

// probeTimeout bounds the connection ClearSocket makes to learn whether
// anything accepts on a socket.
const probeTimeout = 2 * time.Second

// ClearSocket readies path for a new Unix-domain listener. Nothing there
// is fine. A socket nothing listens on (connecting is refused) is left
// over from a process gone and is removed. A socket something accepts
// on, or might (a full backlog, a slow answer), is an *InUseError; a file
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
	c, err := net.DialTimeout("unix", path, probeTimeout)
	if err == nil {
		c.Close()
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
