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
// (The real-time signals 35-64 are written out: a literal of constants is
// laid out by the linker, where a loop would run at every start.)
var Ending = []syscall.Signal{
	syscall.SIGQUIT, syscall.SIGTRAP, syscall.SIGABRT, syscall.SIGUSR1,
	syscall.SIGUSR2, syscall.SIGPIPE, syscall.SIGALRM, syscall.SIGSTKFLT,
	syscall.SIGXCPU, syscall.SIGXFSZ, syscall.SIGVTALRM, syscall.SIGPROF,
	syscall.SIGIO, syscall.SIGPWR, syscall.SIGSYS,
	35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64,
}

// DaemonEnding are the signals PCP's pmcd and its agents set no handler
// for, so that they end them (SIGXFSZ with a core), where a Go daemon
// would carry on: the rest of Ending they handle or ignore themselves.
var DaemonEnding = []syscall.Signal{syscall.SIGUSR1, syscall.SIGALRM, syscall.SIGXFSZ}
