package main

import (
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// pmtimeDialTimeout bounds the connection to -p's port: PCP's pmval tries
// it once and its connect fails at once on this host when nothing
// listens; the bound only keeps a dropped SYN from holding ours.
const pmtimeDialTimeout = 10 * time.Second

// timeControl is -g and -p: PCP's pmval hands its timing to pmtime (the
// GUI time control of PCP's pcp-gui), started for -g, reached at
// 127.0.0.1 on -p's port otherwise. Ours has no pmtime protocol, so it
// fails as PCP's does where there is no pmtime: -g's pmtime not found
// (the child's execvp(3) says so, then pmTimeConnect's -2, read as an
// errno), -p's port refused (pmTimeConnect's -4, read as EINTR's
// words). A pmtime that is there is said to be unsupported.
func (v *valuer) timeControl() error {
	if v.p.GuiMode {
		if _, err := exec.LookPath("pmtime"); err != nil {
			why := syscall.ENOENT.Error()
			var errno syscall.Errno
			if errors.As(err, &errno) {
				why = errno.Error()
			}
			fmt.Fprintf(v.errw, "execvp: %s\n", upperFirst(why))
			return v.fatal("%s: pmTimeConnect: %s\n", v.prog, pcp.TextOf(pcp.Error(-2)))
		}
		return v.fatal("%s: pmTimeConnect: time control by pmtime is not supported\n", v.prog)
	}
	// the port as libpcp_gui gives it to htons
	port := strconv.Itoa(int(uint16(v.p.GuiPort)))
	c, err := net.DialTimeout("tcp4", net.JoinHostPort("127.0.0.1", port), pmtimeDialTimeout)
	if err != nil {
		return v.fatal("%s: pmTimeConnect: %s\n", v.prog, pcp.TextOf(pcp.Error(-4)))
	}
	c.Close()
	return v.fatal("%s: pmTimeConnect: time control by pmtime is not supported\n", v.prog)
}

// upperFirst is strerror's capital where Go's errno text has none.
func upperFirst(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}
