// Package sigfrom does with signals what a C program can and os/signal
// cannot: it records which process sent this one a signal, as the
// kernel's siginfo tells a C program's SA_SIGINFO handler (PCP's pmcd
// logs "caught SIGTERM from pid=N uid=N", and Go's os/signal delivers
// signals without their sender), and it gives signals their default
// action again (AsC, DefaultAction, Die), so that a Go program dies of
// the signals a C program without handlers dies of, as PCP's tools do.
//
// Watch puts a small handler of its own in front of the Go runtime's for
// the signals named (after signal.Notify has made the runtime handle
// them): it stores the sender's pid and uid from the siginfo the kernel
// passes and jumps to the runtime's handler with every register and the
// stack as the kernel left them, so the runtime sees the signal exactly
// as before and os/signal delivers it as usual. Last then gives the
// sender of the latest such signal. Only linux/amd64 has the handler;
// elsewhere Watch returns ErrUnsupported and signals carry no sender.
//
// Why not signalfd: a signal read from a signalfd must be blocked in
// every thread, or a thread that does not block it takes it first. Go
// starts threads at any time with the signal mask the process started
// with, so the signal could only be blocked everywhere by starting the
// program with it blocked (re-executing itself), and its children (pmcd's
// agents) would then inherit the blocked mask, as os/exec has no way to
// set a child's mask.
package sigfrom
