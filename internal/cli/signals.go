package cli

import (
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/gopcp/gopcp/internal/sigfrom"
)

// pipeOnHost is whether host contexts ignore SIGPIPE from now on, as
// libpcp does; set by Signals, for programs, never for tests run in
// process.
var pipeOnHost atomic.Bool

// Signals makes the process end by signals as PCP's client tools end,
// which install no handlers of their own for them: SIGUSR1, SIGALRM,
// SIGXFSZ and the rest of sigfrom.Ending end it by their default
// action, so its parent sees the signal (a shell's 128+N), with nothing
// buffered written. And, as libpcp ignores SIGPIPE before the first PDU
// it sends, a host context that NewSource makes ignores it from its
// first PDU (its handshake's CREDS) on:
// a write to a reader that has gone (pminfo -f | head) fails, the tool
// goes on, and it ends as it would have. Archives and local contexts
// send no PDU, so SIGPIPE ends those tools. Called first thing in a
// tool's main.
func Signals() {
	if sigfrom.AsC() == nil {
		pipeOnHost.Store(true)
	}
}

// ignorePipe is a host context's first send (pmapi.WithFirstSend): the
// CREDS PDU of its handshake, once pmcd's greeting came, as libpcp
// ignores SIGPIPE at its first PDU.
func ignorePipe() {
	if !signal.Ignored(syscall.SIGPIPE) {
		signal.Ignore(syscall.SIGPIPE)
	}
}
