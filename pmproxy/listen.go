package pmproxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"syscall"

	"github.com/gopcp/gopcp/internal/ownfile"
)

// Listen binds, as PCP's pmproxy does, the Unix socket (when its
// directory allows) and every port on every interface: an IPv4 and an
// IPv6 (v6 only) socket each by default. A bind that fails is a row
// marked err in the log's port table and an error line; pmproxy starts
// with whatever it could bind. Which sockets those are is requestPlan's
// rule; the ports it drops are warnings. keepalive is [pmproxy]
// keepalive's seconds (keepAlive).
func Listen(socket string, ports []int, ifaces []string, keepalive int) (lns []net.Listener, rows []PortRow, warns, errs []string) {
	if socket != "" {
		// As pmcd's: a stale socket cleared, a live one left alone, and
		// at exit the file removed only while it is still ours.
		// Every user may connect, as to PCP's (uv_pipe_chmod): the
		// file is root's when a daemon switches user after the bind.
		row := PortRow{Family: "unix", Address: socket, FD: -1}
		if ln, err := ownfile.ListenUnix(socket, 0o777); err == nil {
			lns = append(lns, ln)
			row.FD, row.OK = listenerFD(ln), true
		} else {
			errs = append(errs, "open_request_local - uv_pipe_bind "+socket+" failed "+uvError(err, true))
		}
		rows = append(rows, row)
	}
	add := func(network, host string, port int, family, address string) error {
		row := PortRow{Family: family, Address: address, Port: port, FD: -1}
		lc := net.ListenConfig{
			// the connections keep what the socket has (the kernel
			// copies it to each), not Go's 15 s
			KeepAlive: -1,
			Control: func(_, _ string, c syscall.RawConn) error {
				return c.Control(func(fd uintptr) { keepAlive(int(fd), keepalive) })
			},
		}
		ln, err := lc.Listen(context.Background(), network, net.JoinHostPort(host, strconv.Itoa(port)))
		if err == nil {
			lns = append(lns, ln)
			row.FD, row.OK = listenerFD(ln), true
		}
		rows = append(rows, row)
		return err
	}
	specs, dropped := requestPlan(ports, ifaces)
	for _, p := range dropped {
		warns = append(warns, fmt.Sprintf("duplicate client request port (%d) will be ignored", p))
	}
	for _, sp := range specs {
		if err := add(sp.network, sp.host, sp.port, sp.family, sp.label); err != nil {
			if sp.network == "tcp6" && errors.Is(err, syscall.EAFNOSUPPORT) {
				// a host without IPv6: PCP's asks libpcp and
				// binds IPv4 alone
				rows = rows[:len(rows)-1]
				continue
			}
			errs = append(errs, "open_request_port - uv_listen failed "+uvError(err, false))
		}
	}
	return lns, rows, warns, errs
}

// PortRow is a line of the port table: a socket pmproxy bound (ok) or
// failed to bind, its descriptor (-1 without one), port (0 for the Unix
// socket), family and address.
type PortRow struct {
	OK              bool
	FD, Port        int
	Family, Address string
}

// WritePortTable writes the table of request ports PCP's pmproxy logs
// as it starts.
func WritePortTable(w io.Writer, rows []PortRow) {
	fmt.Fprintf(w, "pmproxy request port(s):\n  sts fd   port  family address\n  === ==== ===== ====== =======\n")
	for _, r := range rows {
		sts, port := "err", ""
		if r.OK {
			sts = "ok "
		}
		if r.Family != "unix" {
			port = strconv.Itoa(r.Port)
		}
		fmt.Fprintf(w, "  %s %4d %5s %-6s %s\n", sts, r.FD, port, r.Family, r.Address)
	}
}

// uvNames are libuv's names of the errors a bind meets.
var uvNames = map[syscall.Errno]string{
	syscall.EADDRINUSE:    "EADDRINUSE",
	syscall.EADDRNOTAVAIL: "EADDRNOTAVAIL",
	syscall.EACCES:        "EACCES",
	syscall.EPERM:         "EPERM",
	syscall.EINVAL:        "EINVAL",
	syscall.ENOTDIR:       "ENOTDIR",
	syscall.ENAMETOOLONG:  "ENAMETOOLONG",
	syscall.EAFNOSUPPORT:  "EAFNOSUPPORT",
}

// uvError is a bind's failure as PCP's pmproxy words it, libuv's name
// and text ("[EADDRINUSE]: address already in use"); for a Unix socket
// libuv reports a missing directory as EACCES.
func uvError(err error, unix bool) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return "[UNKNOWN]: " + err.Error()
	}
	if unix && errno == syscall.ENOENT {
		errno = syscall.EACCES
	}
	name, ok := uvNames[errno]
	if !ok {
		name = "E" + strconv.Itoa(int(errno))
	}
	return "[" + name + "]: " + errno.Error()
}

// listenerFD is a listener's descriptor number, -1 when it has none.
func listenerFD(ln net.Listener) int {
	fd := -1
	if l, ok := ln.(syscall.Conn); ok {
		if rc, err := l.SyscallConn(); err == nil {
			rc.Control(func(u uintptr) { fd = int(u) })
		}
	}
	return fd
}

// bindSpec is one socket pmproxy tries to bind: the address it binds
// ("" for every address of the family), its family ("inet" or "ipv6")
// and the address as the log's port table names it.
type bindSpec struct {
	network, host string
	port          int
	family, label string
}

// requestPlan is the sockets a port list and the interfaces ask for, as
// libpcp's request ports and PCP's pmproxy make them, and the ports
// dropped as duplicates (each one logged as a warning).
//
// The rules, all PCP's: a port that repeats one before it is dropped
// (only the first repeat of each is found, and a dropped entry counts
// as a port of -1 that can itself repeat); the rest are paired with
// each interface in turn (-i's, then PMPROXY_LOCAL's loopback), or with
// every address when there is none, port 0 then meaning loopback only;
// of those pairs pmproxy tries as many as the port list has entries,
// dropped ones included, the pairs past the end being the last pair
// again (so a repeated port is tried twice and fails the second time,
// and interfaces beyond the first may not be tried at all). A pair on
// every address or loopback is an IPv4 and an IPv6 socket (the latter
// labelled INADDR_ANY whatever it binds), one on a numeric address a
// socket of that address's family, and one on a name no socket at all.
func requestPlan(ports []int, ifaces []string) (specs []bindSpec, dropped []int) {
	list := append([]int(nil), ports...)
	for i := range list {
		for n := i + 1; n < len(list); n++ {
			if list[i] == list[n] {
				dropped = append(dropped, list[n])
				list[n] = -1
				break
			}
		}
	}
	type pair struct {
		address string
		port    int
	}
	var pairs []pair
	if len(ifaces) == 0 {
		for _, p := range list {
			switch {
			case p == -1:
			case p == 0:
				pairs = append(pairs, pair{"INADDR_LOOPBACK", p})
			default:
				pairs = append(pairs, pair{"INADDR_ANY", p})
			}
		}
	} else {
		for _, ifc := range ifaces {
			for _, p := range list {
				if p != -1 {
					pairs = append(pairs, pair{ifc, p})
				}
			}
		}
	}
	if len(pairs) == 0 {
		return nil, dropped
	}
	for i := range list {
		pr := pairs[min(i, len(pairs)-1)]
		switch pr.address {
		case "INADDR_ANY":
			specs = append(specs, bindSpec{"tcp4", "0.0.0.0", pr.port, "inet", pr.address},
				bindSpec{"tcp6", "::", pr.port, "ipv6", "INADDR_ANY"})
		case "INADDR_LOOPBACK":
			specs = append(specs, bindSpec{"tcp4", "127.0.0.1", pr.port, "inet", pr.address},
				bindSpec{"tcp6", "::1", pr.port, "ipv6", "INADDR_ANY"})
		default:
			// libpcp takes only a numeric address here
			if net.ParseIP(pr.address) == nil {
				continue
			}
			if !strings.Contains(pr.address, ":") {
				specs = append(specs, bindSpec{"tcp4", pr.address, pr.port, "inet", pr.address})
			} else {
				specs = append(specs, bindSpec{"tcp6", pr.address, pr.port, "ipv6", pr.address})
			}
		}
	}
	return specs, dropped
}

// keepAlive sets TCP keep-alive on a listening socket as PCP's pmproxy
// does through libuv, whose accepted connections inherit it: on after
// secs idle seconds when secs is above zero (the system's interval and
// count), else off. An idle time the system refuses (above 32767) leaves
// keep-alive on with the system's idle time, as libuv's order of calls
// does; nothing here fails the bind.
func keepAlive(fd, secs int) {
	if secs <= 0 {
		_ = syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_KEEPALIVE, 0)
		return
	}
	_ = syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_KEEPALIVE, 1)
	_ = syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_KEEPIDLE, secs)
}
