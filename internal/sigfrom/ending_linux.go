package sigfrom

import "syscall"

// Ending are the signals whose default action ends a process (or ends it
// with a core) and that a Go program survives unless it asks for them:
// the runtime installs its own handler for every signal at start, which
// ignores those not asked for (SIGUSR1, SIGALRM, SIGXFSZ, a SIGPIPE sent
// by kill, the real-time signals) or turns them into a goroutine dump and
// exit status 2 (SIGQUIT, SIGTRAP, SIGABRT, SIGSYS, SIGSTKFLT). A C
// program that installs no handler, as PCP's client tools install none,
// dies of each, and its parent sees the signal.
//
// Left out: SIGHUP, SIGINT and SIGTERM, which the runtime already ends
// the process with; SIGSEGV, SIGBUS, SIGFPE and SIGILL, which the
// runtime turns into panics; signal 32 and 34, which it leaves at their
// default; signal 33, which it uses to run a system call on every thread
// (syscall.Setuid and the like); SIGURG, its preemption signal (ignored
// by default anyway).
var Ending = func() []syscall.Signal {
	s := []syscall.Signal{
		syscall.SIGQUIT, syscall.SIGTRAP, syscall.SIGABRT, syscall.SIGUSR1,
		syscall.SIGUSR2, syscall.SIGPIPE, syscall.SIGALRM, syscall.SIGSTKFLT,
		syscall.SIGXCPU, syscall.SIGXFSZ, syscall.SIGVTALRM, syscall.SIGPROF,
		syscall.SIGIO, syscall.SIGPWR, syscall.SIGSYS,
	}
	for n := 35; n <= maxSignal; n++ {
		s = append(s, syscall.Signal(n))
	}
	return s
}()
