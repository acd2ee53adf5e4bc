package sigfrom

import (
	"errors"
	"syscall"
)

// Sender is who sent a signal: the sending process's pid and real uid.
// A PID of 0 is a signal the kernel sent (a terminal's interrupt key, a
// child's exit), which names no process.
type Sender struct {
	PID, UID int
}

// ErrUnsupported is Watch's error where senders cannot be recorded.
var ErrUnsupported = errors.New("sigfrom: signal senders are not recorded on this platform")

// maxSignal is the largest signal number Watch takes (Linux's 64).
const maxSignal = 64

// Watch records the senders of sigs from now on. Each must already be
// handled by the Go runtime, as signal.Notify makes it: a signal whose
// handler is the default action or ignored is an error, and is left
// alone. Calling it again for a signal it watches changes nothing.
func Watch(sigs ...syscall.Signal) error { return watch(sigs) }

// Last is the sender of the latest signal sig that arrived since Watch,
// and whether one did.
func Last(sig syscall.Signal) (Sender, bool) { return last(sig) }
