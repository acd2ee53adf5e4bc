package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/series/resp"
)

// unreachable says, as PCP's pmseries says it, that no Redis answered
// where it looked, and whether err (series.Connect's) was that: a
// connection that could not be made (nothing listening, a host that does
// not resolve), or a server that took it and then answered the first
// command with no reply (garbage, or closing part way). PCP's libpcp_web
// notes either in a pmNotifyErr Info line and the run ends with nothing
// done and status 0. A server that answers nothing at all is given the
// command timeout (resp.Options.Timeout, 60 s, libpcp_web's), where
// PCP's pmseries 6.0.3 waits for ever, and said so in the same line.
// Other failures (a refused password) are not this.
func unreachable(stderr io.Writer, err error, timeout time.Duration) bool {
	why, ok := whyUnreachable(err, timeout)
	if !ok {
		return false
	}
	fmt.Fprintf(stderr, "[%s] pmseries(%d) Info: Cannot connect to Redis: %s\n",
		time.Now().Format("Mon Jan _2 15:04:05"), os.Getpid(), why)
	return true
}

func whyUnreachable(err error, timeout time.Duration) (string, bool) {
	var op *net.OpError
	var dns *net.DNSError
	var ne net.Error
	switch {
	case errors.As(err, &op) && op.Op == "dial":
		switch {
		case errors.As(err, &dns) && dns.IsNotFound:
			return "Name or service not known", true // getaddrinfo's EAI_NONAME
		case pcp.CodeOf(err, 0) != 0:
			return pcp.TextOf(err), true // strerror's words
		}
		return op.Err.Error(), true
	case errors.As(err, &ne) && ne.Timeout():
		return fmt.Sprintf("no reply in %v", timeout), true
	case errors.Is(err, resp.ErrProtocol), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNRESET):
		// hiredis-cluster's words for its first command (CLUSTER
		// NODES) getting no reply
		return "Command(cluster nodes) reply error(NULL).", true
	}
	return "", false
}
