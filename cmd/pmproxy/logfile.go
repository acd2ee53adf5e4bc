package main

import (
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"strconv"
	"sync"
	"syscall"

	"github.com/gopcp/gopcp/internal/ownfile"
	"github.com/gopcp/gopcp/pcp"
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
		// strerror's words, as libpcp's pmOpenLog says it
		fmt.Fprintf(os.Stderr, "pmproxy: cannot open log \"%s\" for writing : %s\n", path, pcp.TextOf(err))
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

// stderrLog is a logger of lines in the daemon messages' form on
// standard error, for what pmproxy says before its log is open.
func stderrLog() *log.Logger { return log.New(&stampWriter{w: os.Stderr}, "", 0) }

// portRow is a line of the port table: a socket pmproxy bound (ok) or
// failed to bind, its descriptor (-1 without one), port (0 for the Unix
// socket), family and address.
type portRow struct {
	ok              bool
	fd, port        int
	family, address string
}

// writePortTable writes the table of request ports PCP's pmproxy logs
// as it starts.
func writePortTable(w io.Writer, rows []portRow) {
	fmt.Fprintf(w, "pmproxy request port(s):\n  sts fd   port  family address\n  === ==== ===== ====== =======\n")
	for _, r := range rows {
		sts, port := "err", ""
		if r.ok {
			sts = "ok "
		}
		if r.family != "unix" {
			port = strconv.Itoa(r.port)
		}
		fmt.Fprintf(w, "  %s %4d %5s %-6s %s\n", sts, r.fd, port, r.family, r.address)
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
