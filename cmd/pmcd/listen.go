package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/pcp"
)

// sockets are pmcd's listeners; unix, when pmcd bound its Unix socket,
// is that file, removed at exit only while it is still the one bound.
type sockets struct {
	ls   []net.Listener
	unix *ownfile.Owned
}

// close closes the listeners and removes the Unix socket if still ours.
func (s *sockets) close() {
	for _, l := range s.ls {
		l.Close()
	}
	s.unix.Remove()
}

// listen opens the TCP sockets of -i and -p and the Unix socket of -s,
// before pmcd touches any file, as PCP's pmcd does: a pmcd that cannot
// have its port leaves the running one's log and pid file alone. A Unix
// socket another process accepts on is left to it and this pmcd goes
// without one; warn gets what is worth logging.
func listen(o *options, warn func(string)) (*sockets, error) {
	s := &sockets{}
	ifaces := o.ifaces
	if len(ifaces) == 0 {
		ifaces = []string{""}
	}
	for _, iface := range ifaces {
		for _, port := range o.ports {
			l, err := net.Listen("tcp", net.JoinHostPort(iface, strconv.Itoa(port)))
			if err != nil && o.local && iface == "::1" {
				// A host without IPv6 serves local clients on 127.0.0.1.
				warn(fmt.Sprintf("Warning: no IPv6 loopback: %v", err))
				continue
			}
			if err != nil {
				s.close()
				return nil, bindError(iface, port, err)
			}
			s.ls = append(s.ls, l)
		}
	}
	if o.socket != "" {
		l, owned, err := listenUnix(o.socket)
		if err != nil {
			warn(fmt.Sprintf("Warning: no Unix socket: %v", err))
		} else {
			s.ls = append(s.ls, l)
			s.unix = owned
		}
	}
	return s, nil
}

// bindError says that a port could not be had in PCP's pmcd's words
// ("OpenRequestSocket(44321, INADDR_ANY, inet) __pmBind: Address already
// in use"), for whoever looks for them in the log or on standard error.
func bindError(iface string, port int, err error) error {
	addr, family := iface, "inet"
	if iface == "" {
		addr = "INADDR_ANY"
	}
	if strings.Contains(iface, ":") {
		family = "ipv6"
	}
	return fmt.Errorf("OpenRequestSocket(%d, %s, %s) __pmBind: %s", port, addr, family, pcp.TextOf(err))
}

// listenUnix binds the Unix socket for local: clients, removing a stale
// file first but never a socket something accepts on, nor a file that is
// not a socket; the socket is open to every user, whose credentials
// access control then judges.
func listenUnix(path string) (net.Listener, *ownfile.Owned, error) {
	if err := ownfile.ClearSocket(path); err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, nil, err
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, nil, err
	}
	// Removed at exit by identity, not by the listener: another
	// process's socket may have replaced it meanwhile.
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	if err := os.Chmod(path, 0o777); err != nil {
		l.Close()
		os.Remove(path) // just bound here: nobody else's yet
		return nil, nil, err
	}
	owned, err := ownfile.Own(path)
	if err != nil {
		l.Close()
		return nil, nil, err
	}
	return l, owned, nil
}
