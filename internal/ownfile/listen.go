package ownfile

import (
	"errors"
	"net"
	"os"
	"sync"
)

// Socket is a Unix-domain listener on a socket file this process made.
// Its Close closes the listener and then removes the file, but only while
// the path still names the socket bound here: another process's socket
// put in its place meanwhile stays.
type Socket struct {
	*net.UnixListener
	owned *Owned
	once  sync.Once
	err   error
}

// own is Own, replaced by tests to make it fail.
var own = Own

// ListenUnix binds a Unix-domain socket at path by the rules for a
// daemon's files: a stale socket left by a process gone is removed first,
// and a socket something accepts on, or a file of another kind, is left
// alone (ClearSocket's error). A mode other than zero is given to the
// file after the bind (PCP's daemons open their sockets to every user,
// whose credentials then decide). The file is this process's own from
// the bind: a failure after it (the mode, or recording the file as owned)
// closes the listener, removes the file and is returned.
func ListenUnix(path string, mode os.FileMode) (*Socket, error) {
	if err := ClearSocket(path); err != nil {
		return nil, err
	}
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, err
	}
	// Removed by identity at Close, not by the listener: another
	// process's socket may have replaced it meanwhile.
	l.SetUnlinkOnClose(false)
	fail := func(err error) (*Socket, error) {
		l.Close()
		os.Remove(path) // just bound here: nobody else's yet
		return nil, err
	}
	if mode != 0 {
		if err := os.Chmod(path, mode); err != nil {
			return fail(err)
		}
	}
	owned, err := own(path)
	if err != nil {
		return fail(err)
	}
	return &Socket{UnixListener: l, owned: owned}, nil
}

// Path is the socket file's name.
func (s *Socket) Path() string { return s.owned.Path() }

// Close closes the listener and removes the socket file while it is
// still the one bound here. Later calls return the first one's error.
func (s *Socket) Close() error {
	s.once.Do(func() {
		err := s.UnixListener.Close()
		if errors.Is(err, net.ErrClosed) {
			err = nil // closed already by whoever served on it
		}
		s.err = errors.Join(err, s.owned.Remove())
	})
	return s.err
}
