// Package sigdefault gives signals back to the kernel's default action,
// as in a C program that sets no handler for them: PCP's pmcd and its
// agents end on SIGUSR1 or SIGALRM and dump core on SIGXFSZ, where the Go
// runtime, which installs a handler for every signal, would carry on as
// if nothing had come.
//
// Restore sets the action with rt_sigaction behind the runtime's back,
// so it must come before, and instead of, any os/signal call for those
// signals: signal.Notify, Ignore or Reset puts the runtime's handler
// back.
package sigdefault

import (
	"errors"
	"syscall"
)

// ErrUnsupported is Restore where it is not built (systems other than
// Linux).
var ErrUnsupported = errors.New("sigdefault: not supported on this system")

// Restore gives each signal the kernel's default action (SIG_DFL), the
// first failure ending it.
func Restore(sigs ...syscall.Signal) error {
	for _, s := range sigs {
		if err := restore(s); err != nil {
			return err
		}
	}
	return nil
}
