package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/pcp"
)

// sockets are pmcd's listeners; closing the Unix socket's
// (ownfile.Socket) removes its file while it is still the one bound.
// ports are the TCP sockets asked for, bound or not, in the order of
// PCP's request port table.
type sockets struct {
	ls    []net.Listener
	ports []requestPort
}

// requestPort is one TCP socket pmcd tried to open: l is nil when it
// could not.
type requestPort struct {
	l            net.Listener
	port         int
	family, addr string
}

// close closes the listeners, removing the Unix socket if still ours.
func (s *sockets) close() {
	for _, l := range s.ls {
		l.Close()
	}
}

// errNoPorts ends a pmcd that could open none of its sockets.
var errNoPorts = errors.New("pmcd: can't open any request ports, exiting")

// listen opens the TCP sockets of -i and -p and the Unix socket of -s,
// before pmcd touches any file, as PCP's pmcd does: a socket for IPv4
// and one for IPv6 where no address is given, each failure reported on
// standard error in PCP's words ("... pmcd may already be running" for a
// port in use) and the others kept, so that pmcd serves on whatever it
// could open; with none it ends (errNoPorts), leaving the running pmcd's
// log and pid file alone. A Unix socket another process accepts on is
// left to it and this pmcd goes without one; warn gets what is worth
// logging.
func listen(o *options, warn func(string)) (*sockets, error) {
	s := &sockets{}
	ifaces := o.ifaces
	if len(ifaces) == 0 {
		ifaces = []string{""}
	}
	open := func(network, host string, port, bind int, family, addr string) net.Listener {
		// The port goes to bind through htons: only its low 16 bits
		// count, while the table shows it as given.
		l, err := net.Listen(network, net.JoinHostPort(host, strconv.Itoa(bind&0xffff)))
		if err != nil {
			s.ports = append(s.ports, requestPort{port: port, family: family, addr: addr})
			notify("Error", bindError(addr, family, port, err).Error())
			if errors.Is(err, syscall.EADDRINUSE) {
				notify("Error", "pmcd may already be running")
			}
			return nil
		}
		s.ports = append(s.ports, requestPort{l: l, port: port, family: family, addr: addr})
		s.ls = append(s.ls, l)
		return l
	}
	ports := dedupPorts(o.ports)
	withIPv6 := ipv6Enabled("/proc")
	for _, iface := range ifaces {
		for _, port := range ports {
			iface := iface
			if iface == "" && port == 0 {
				// libpcp's AddRequestPort: a port the system picks,
				// with no -i, is for this host only; each family gets
				// its own.
				iface = "INADDR_LOOPBACK"
			}
			if iface == "" {
				open("tcp4", "0.0.0.0", port, port, "inet", "INADDR_ANY")
				if withIPv6 {
					open("tcp6", "::", port, port, "ipv6", "INADDR_ANY")
				}
				continue
			}
			if iface == "INADDR_LOOPBACK" {
				// PMCD_LOCAL's interface: the loopback address of each
				// family, named so in the table. A host without IPv6
				// (as libpcp judges it) serves on 127.0.0.1 alone.
				open("tcp4", "127.0.0.1", port, port, "inet", iface)
				if withIPv6 {
					open("tcp6", "::1", port, port, "ipv6", iface)
				}
				continue
			}
			// PCP's pmcd tries each -i address in both families: the
			// family it is not gets a failed row, and what is not a
			// numeric address at all a failed row in each and one
			// complaint.
			ip := net.ParseIP(iface)
			for _, family := range []string{"inet", "ipv6"} {
				switch {
				case ip == nil:
					s.ports = append(s.ports, requestPort{port: port, family: family, addr: iface})
					if family == "inet" {
						notify("Error", fmt.Sprintf("OpenRequestSocket(%d, %s) invalid address", port, iface))
					}
				case (ip.To4() != nil) != (family == "inet"):
					s.ports = append(s.ports, requestPort{port: port, family: family, addr: iface})
				case family == "inet":
					open("tcp4", iface, port, port, family, iface)
				default:
					open("tcp6", iface, port, port, family, iface)
				}
			}
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
	if len(s.ls) == 0 {
		s.close()
		return nil, errNoPorts
	}
	return s, nil
}

// notify writes a message to standard error as pmNotifyErr does, for
// what happens before the log is open.
func notify(level, msg string) {
	fmt.Fprintf(os.Stderr, "[%s] pmcd(%d) %s: %s\n", logStamp(), os.Getpid(), level, msg)
}

// bindError says that a port could not be had in PCP's pmcd's words
// ("OpenRequestSocket(44321, INADDR_ANY, inet) __pmBind: Address already
// in use"), for whoever looks for them on standard error.
func bindError(addr, family string, port int, err error) error {
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

// dedupPorts drops repeated ports as libpcp's __pmServerSetupRequestPorts
// does, warning of each: for each port, the first later copy only (a
// third copy stays, and fails to bind).
func dedupPorts(ports []int) []int {
	list := append([]int(nil), ports...)
	for i := range list {
		for n := i + 1; n < len(list); n++ {
			if list[i] == list[n] {
				notify("Warning", fmt.Sprintf("pmcd: duplicate client request port (%d) will be ignored", list[n]))
				list[n] = -1
				break
			}
		}
	}
	var out []int
	for _, p := range list {
		if p != -1 {
			out = append(out, p)
		}
	}
	return out
}
