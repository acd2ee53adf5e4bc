package cli

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmapi"
)

// connectWarned and requestWarned keep each timeout warning to one a
// process: libpcp reads each variable once, when it first needs it, and
// keeps the value.
var connectWarned, requestWarned sync.Once

// warnTimeouts writes libpcp's warnings (pmNotifyErr's form) for a
// PMCD_CONNECT_TIMEOUT or PMCD_REQUEST_TIMEOUT it ignores, once a host
// context has been tried (err its outcome), when PCP's tools print them:
// libpcp reads the connect timeout as it first connects to a pmcd, so not
// for a specification it refuses or a name that does not resolve, and the
// request timeout only once a context's connection and handshake are done
// (pmcd down or silent, it is never read). The connection's comes first.
func warnTimeouts(w io.Writer, env func(string) (string, bool), err error) {
	var spec *pmapi.HostSpecError
	var dns *net.DNSError
	if errors.As(err, &spec) || errors.As(err, &dns) || errors.Is(err, pcp.ErrNotHost) {
		return
	}
	connectWarned.Do(func() { warnTimeout(w, env, "PMCD_CONNECT_TIMEOUT", pmapi.ConnectTimeoutWarning) })
	if err == nil {
		requestWarned.Do(func() { warnTimeout(w, env, "PMCD_REQUEST_TIMEOUT", pdu.RequestTimeoutWarning) })
	}
}

// warnTimeout writes warning's text for the variable name, if it is set
// and the text is not empty.
func warnTimeout(w io.Writer, env func(string) (string, bool), name string, warning func(string) string) {
	v, ok := env(name)
	if !ok {
		return
	}
	t := warning(v)
	if t == "" {
		return
	}
	if w == nil {
		w = os.Stderr
	}
	fmt.Fprintf(w, "[%s] %s(%d) Warning: %s\n", time.Now().Format("Mon Jan _2 15:04:05"),
		filepath.Base(os.Args[0]), os.Getpid(), t)
}
