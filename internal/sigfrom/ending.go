package sigfrom

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// defaulted is what AsC gave its default action, for Defaulted.
var defaulted struct {
	sync.Mutex
	sigs []syscall.Signal
}

// Defaulted is what AsC gave its default action: nil before it (and in
// a test binary, which does not call it), for a program that catches
// signals for a while to give them back after.
func Defaulted() []syscall.Signal {
	defaulted.Lock()
	defer defaulted.Unlock()
	return append([]syscall.Signal(nil), defaulted.sigs...)
}

// AsC gives every signal in Ending its default action in the kernel, as
// a C program started by exec has it, so that the process dies of them
// as PCP's tools do: nothing of the program runs, nothing buffered is
// written. It is for a program's main, never a library: once called, a
// write to a broken pipe ends the process whatever the descriptor (as in
// C), where the runtime returns EPIPE for all but standard output and
// error.
//
// One inherited disposition is kept, as far as it can be known: the
// runtime replaced every handler before main ran, and remembers only
// whether SIGHUP and SIGINT were ignored (signal.Ignored). A shell
// without job control starts a background command with SIGINT and
// SIGQUIT ignored, always both (POSIX, "Asynchronous Lists"), so
// SIGQUIT is left ignored when SIGINT was. Any other signal the parent
// left ignored (SIGUSR1, SIGPIPE under systemd) cannot be told from one
// it did not, and gets its default.
func AsC() error {
	sigs := Ending
	if signal.Ignored(syscall.SIGINT) {
		signal.Ignore(syscall.SIGQUIT)
		sigs = without(sigs, syscall.SIGQUIT)
	}
	if err := DefaultAction(sigs...); err != nil {
		return err
	}
	defaulted.Lock()
	defaulted.sigs = sigs
	defaulted.Unlock()
	return nil
}

func without(sigs []syscall.Signal, drop syscall.Signal) []syscall.Signal {
	var out []syscall.Signal
	for _, s := range sigs {
		if s != drop {
			out = append(out, s)
		}
	}
	return out
}

// DefaultAction sets sigs' handlers in the kernel to the default
// action (SIG_DFL), behind the runtime's back: os/signal has no way to,
// as signal.Reset gives a signal back to the runtime's own handler.
// signal.Notify does not undo it (the runtime installs its handler only
// for a signal it does not handle already, and it handled these): a
// program that wants one of them delivered calls Catch.
func DefaultAction(sigs ...syscall.Signal) error { return setDefault(sigs) }

// AsPCPDaemon gives DaemonEnding their default action: for the main of
// pmcd and of our daemon agents, never a library, as a program that wants
// one of them delivered would have to call Catch.
func AsPCPDaemon() error { return DefaultAction(DaemonEnding...) }

// Catch gives sigs back to the runtime's handler that DefaultAction
// replaced, so that signal.Notify delivers them: call it after Notify,
// so that a signal in between still ends the process rather than being
// lost, and DefaultAction again before signal.Stop.
func Catch(sigs ...syscall.Signal) error { return giveBack(sigs) }

// Die ends the process by sig's default action, as a C program without a
// handler for it ends: its parent sees the signal, and a shell reports
// it (128+sig). For a program that caught sig to finish something first.
// If sig's default action does not end a process, or the signal cannot
// be delivered, it exits with the status a shell would have given.
func Die(sig syscall.Signal) {
	signal.Reset(sig)
	if err := DefaultAction(sig); err == nil {
		raise(sig)
	}
	os.Exit(128 + int(sig))
}
