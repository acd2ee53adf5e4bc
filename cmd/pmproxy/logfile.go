package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"syscall"

	"github.com/gopcp/gopcp/internal/ownfile"
)

// openLog starts pmproxy's log as PCP's pmproxy does (libpcp's
// pmOpenLog): the previous log moved aside to .prev, a header naming the
// host and time; the returned function writes the footer. Standard
// error serves when the log cannot be made or another live process
// writes it (a system pmproxy's log is left alone).
func openLog(path string) (io.Writer, func()) {
	f, err := ownfile.OpenLog(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) && !errors.Is(err, ownfile.ErrInUse) {
			err = pe.Err
		}
		fmt.Fprintf(os.Stderr, "pmproxy: cannot open log \"%s\" for writing : %v\n", path, err)
		f = os.Stderr
	}
	ownfile.WriteLogHeader(f, "pmproxy")
	return f, func() {
		ownfile.WriteLogFooter(f)
		if f != os.Stderr {
			f.Close()
		}
	}
}

// stampWriter gives each line written through it the prefix of PCP's
// daemon messages, "[Sat Nov 28 17:50:18] pmproxy(PID) ", the level
// ("Info: ", "Error: ") being the message's own first word.
type stampWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *stampWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := fmt.Fprintf(s.w, "[%s] pmproxy(%d) %s", ownfile.Stamp(), os.Getpid(), b); err != nil {
		return 0, err
	}
	return len(b), nil
}

// writePortTable writes the table of request ports PCP's pmproxy logs
// as it starts: the Unix socket first, then each TCP listener with its
// descriptor, port, family and address (INADDR_ANY for a wildcard).
func writePortTable(w io.Writer, lns []net.Listener) {
	fmt.Fprintf(w, "pmproxy request port(s):\n  sts fd   port  family address\n  === ==== ===== ====== =======\n")
	var rows []string
	for _, ln := range lns {
		fd := listenerFD(ln)
		switch a := ln.Addr().(type) {
		case *net.UnixAddr:
			rows = append([]string{fmt.Sprintf("  ok  %4d       unix   %s\n", fd, a.Name)}, rows...)
		case *net.TCPAddr:
			family, addr := "ipv6", a.IP.String()
			if a.IP.To4() != nil {
				family = "inet"
			}
			if a.IP.IsUnspecified() {
				addr = "INADDR_ANY"
			}
			rows = append(rows, fmt.Sprintf("  ok  %4d %5d %-6s %s\n", fd, a.Port, family, addr))
		}
	}
	for _, r := range rows {
		io.WriteString(w, r)
	}
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
