package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// unreachable says, as PCP's pmseries says it, that no Redis answered
// where it looked, and whether err was that: a connection that could
// not be made (nothing listening, a host that does not resolve). PCP's
// libpcp_web notes it in a pmNotifyErr Info line and the run ends with
// nothing done and status 0. Other failures (a refused password) are
// not this.
func unreachable(stderr io.Writer, err error) bool {
	var op *net.OpError
	if !errors.As(err, &op) || op.Op != "dial" {
		return false
	}
	why := op.Err.Error()
	var dns *net.DNSError
	switch {
	case errors.As(err, &dns) && dns.IsNotFound:
		why = "Name or service not known" // getaddrinfo's EAI_NONAME
	case pcp.CodeOf(err, 0) != 0:
		why = pcp.TextOf(err) // strerror's words
	}
	fmt.Fprintf(stderr, "[%s] pmseries(%d) Info: Cannot connect to Redis: %s\n",
		time.Now().Format("Mon Jan _2 15:04:05"), os.Getpid(), why)
	return true
}
