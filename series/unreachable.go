package series

import (
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/series/resp"
)

// Unreachable says in libpcp_web's words, for its "Cannot connect to
// Redis: ..." line in PCP's pmseries and pmproxy, why Connect's err
// means no Redis answered where it looked: a connection that could not
// be made (strerror's or getaddrinfo's words), a server that took it
// and answered the first command with no reply (garbage, or closing
// part way: hiredis-cluster's words for CLUSTER NODES), or one that
// answered nothing within timeout (where PCP 6.0.3 waits for ever), or
// one whose answer to CLUSTER NODES was no Redis to libpcp_web
// (*NoRedisError). ok is false for other failures (a refused password).
func Unreachable(err error, timeout time.Duration) (why string, ok bool) {
	var op *net.OpError
	var dns *net.DNSError
	var ne net.Error
	var nr *NoRedisError
	switch {
	case errors.As(err, &nr):
		return nr.Why, true
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
		return "Command(cluster nodes) reply error(NULL).", true
	}
	return "", false
}
