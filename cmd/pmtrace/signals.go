package main

import (
	"os/signal"
	"syscall"

	"github.com/gopcp/gopcp/internal/sigfrom"
	"github.com/gopcp/gopcp/trace"
)

// The process's signals as PCP's pmtrace has them: it installs no
// handler, so every signal that ends a C program ends it (sigfrom.AsC,
// in main), but libpcp_trace catches SIGALRM while it connects (a no-op
// handler, so the signal is lost) and ignores SIGPIPE from its first
// PDU on, and system(3) ignores SIGINT and SIGQUIT while -e's command
// runs.

// asC is whether main gave the process's signals their C actions: then
// the client and -e's command treat them as PCP's pmtrace does.
var asC bool

// withSignals sets o's hooks that treat SIGALRM and SIGPIPE as
// libpcp_trace does, for a process whose signals sigfrom.AsC set.
func withSignals(o *trace.Options) {
	o.Dialling = func(dial func()) {
		signal.Ignore(syscall.SIGALRM)
		defer sigfrom.DefaultAction(syscall.SIGALRM)
		dial()
	}
	o.Sending = func() {
		if !signal.Ignored(syscall.SIGPIPE) {
			signal.Ignore(syscall.SIGPIPE)
		}
	}
}

// whileSystem holds SIGINT and SIGQUIT off while a command runs, as
// system(3) ignores them in its caller, and returns the function that
// gives each back the action it had (the default, or ignored as it was
// inherited). The command is started before, so that it inherits the
// actions its parent had, as system's child restores them.
func whileSystem() (restore func()) {
	sigs := []syscall.Signal{syscall.SIGINT, syscall.SIGQUIT}
	var was []bool
	for _, s := range sigs {
		was = append(was, signal.Ignored(s))
	}
	signal.Ignore(syscall.SIGINT, syscall.SIGQUIT)
	return func() {
		for i, s := range sigs {
			if !was[i] {
				sigfrom.DefaultAction(s)
			}
		}
	}
}
