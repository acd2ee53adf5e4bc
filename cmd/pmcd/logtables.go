package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"syscall"

	"github.com/gopcp/gopcp/access"
	"github.com/gopcp/gopcp/pmcd"
)

// pcpLine writes each log message as PCP's pmNotifyErr does: the date
// in brackets, then "pmcd(PID) " before the message's own "Info:",
// "Warning:" or "Error:".
type pcpLine struct{ w io.Writer }

func (l pcpLine) Write(b []byte) (int, error) {
	if _, err := fmt.Fprintf(l.w, "[%s] pmcd(%d) %s", logStamp(), os.Getpid(), b); err != nil {
		return 0, err
	}
	return len(b), nil
}

// startTables is what PCP's pmcd writes to its log once its agents run:
// the agent table, the access lists (the user and group lists only when
// empty), pmcd's pid and PDU version, and its request ports.
func startTables(srv *pmcd.Server, conf *pmcd.Conf, socks *sockets) string {
	var b strings.Builder
	b.WriteString(srv.AgentTable())
	var acl *access.Control
	if conf != nil {
		acl = conf.ACL
	}
	b.WriteString("\n" + acl.DumpHosts() + acl.DumpAccounts() + "\n")
	fmt.Fprintf(&b, "\npmcd: PID = %d, PDU version = 2\n", os.Getpid())
	b.WriteString(requestPorts(socks))
	return b.String()
}

// requestPorts is PCP's table of the sockets pmcd accepts clients on
// (__pmServerDumpRequestPorts): the Unix socket, then each TCP socket
// asked for, "err" with descriptor -1 for one that could not be opened.
func requestPorts(socks *sockets) string {
	var b strings.Builder
	b.WriteString("pmcd request port(s):\n  sts fd   port  family address\n  === ==== ===== ====== =======\n")
	for _, l := range socks.ls {
		if u, ok := l.Addr().(*net.UnixAddr); ok {
			fmt.Fprintf(&b, "  %-3s %4d %5s %-6s %s\n", "ok", listenerFD(l), "", "unix", u.Name)
		}
	}
	for _, p := range socks.ports {
		sts, fd := "err", -1
		if p.l != nil {
			sts, fd = "ok", listenerFD(p.l)
		}
		fmt.Fprintf(&b, "  %-3s %4d %5d %-6s %s\n", sts, fd, p.port, p.family, p.addr)
	}
	return b.String()
}

// listenerFD is a listener's descriptor, -1 if it has none to show.
func listenerFD(l net.Listener) int {
	sc, ok := l.(syscall.Conn)
	if !ok {
		return -1
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return -1
	}
	fd := -1
	_ = rc.Control(func(u uintptr) { fd = int(u) })
	return fd
}
