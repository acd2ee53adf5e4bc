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

// sockets are pmcd's listeners; closing the Unix socket's
// (ownfile.Socket) removes its file while it is still the one bound.
type sockets struct {
	ls []net.Listener
}

// close closes the listeners, removing the Unix socket if still ours.
func (s *sockets) close() {
	for _, l := range s.ls {
		l.Close()
	}
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
		l, err := listenUnix(o.socket)
		if err != nil {
			warn(fmt.Sprintf("Warning: no Unix socket: %v", err))
		} else {
			s.ls = append(s.ls, l)
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

// listenUnix binds the Unix socket for local: clients by ownfile's rules
// (a stale file removed first, never a socket something accepts on, nor a
// file that is not a socket), making its directory; the socket is open to
// every user, whose credentials access control then judges.
func listenUnix(path string) (*ownfile.Socket, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	return ownfile.ListenUnix(path, 0o777)
}
