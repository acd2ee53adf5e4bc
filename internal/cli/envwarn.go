package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmapi"
)

// timeoutWarned keeps the timeout warnings to one each a process: libpcp
// reads each variable once, when it first needs it, and keeps the value.
var timeoutWarned sync.Once

// warnTimeouts writes libpcp's warnings (pmNotifyErr's form) for a
// PMCD_CONNECT_TIMEOUT or PMCD_REQUEST_TIMEOUT it ignores, as PCP's tools
// print them when they first make a host context: the connection's
// first, then the request's.
func warnTimeouts(w io.Writer, env func(string) (string, bool)) {
	timeoutWarned.Do(func() {
		if w == nil {
			w = os.Stderr
		}
		var texts []string
		if v, ok := env("PMCD_CONNECT_TIMEOUT"); ok {
			texts = append(texts, pmapi.ConnectTimeoutWarning(v))
		}
		if v, ok := env("PMCD_REQUEST_TIMEOUT"); ok {
			texts = append(texts, pdu.RequestTimeoutWarning(v))
		}
		for _, t := range texts {
			if t != "" {
				fmt.Fprintf(w, "[%s] %s(%d) Warning: %s\n", time.Now().Format("Mon Jan _2 15:04:05"),
					filepath.Base(os.Args[0]), os.Getpid(), t)
			}
		}
	})
}
