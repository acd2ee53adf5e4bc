//go:build linux && !(mips || mipsle || mips64 || mips64le)

package sigfrom

import (
	"fmt"
	"runtime"
	"sync"
	"syscall"
	"unsafe"
)

// kernelAction holds a struct sigaction as rt_sigaction(2) reads and
// writes it, whatever the architecture's layout (with or without
// sa_restorer): four words hold the largest.
type kernelAction [4]uint64

// runtimeActions are the handlers setDefault replaced, by signal, for
// giveBack: the runtime's, kept as the kernel gave them.
var runtimeActions struct {
	sync.Mutex
	act  [maxSignal + 1]kernelAction
	kept [maxSignal + 1]bool
}

func rtSigactionRaw(sig syscall.Signal, act, old *kernelAction) error {
	_, _, e := syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig),
		uintptr(unsafe.Pointer(act)), uintptr(unsafe.Pointer(old)), 8, 0, 0)
	if e != 0 {
		return fmt.Errorf("sigfrom: %v: %w", sig, e)
	}
	return nil
}

// setDefault passes the kernel a struct sigaction of zeros: SIG_DFL is
// 0, no flags, an empty mask, in any layout. The handler it replaces is
// kept, the first one other than SIG_DFL and SIG_IGN for each signal.
func setDefault(sigs []syscall.Signal) error {
	runtimeActions.Lock()
	defer runtimeActions.Unlock()
	var zero kernelAction
	for _, sig := range sigs {
		if sig <= 0 || sig > maxSignal {
			return fmt.Errorf("sigfrom: signal %d out of range", int(sig))
		}
		var old kernelAction
		if err := rtSigactionRaw(sig, &zero, &old); err != nil {
			return err
		}
		if old[0] > 1 { // a handler, not SIG_DFL (0) or SIG_IGN (1)
			runtimeActions.act[sig], runtimeActions.kept[sig] = old, true
		}
	}
	return nil
}

// giveBack puts back the handlers setDefault replaced.
func giveBack(sigs []syscall.Signal) error {
	runtimeActions.Lock()
	defer runtimeActions.Unlock()
	for _, sig := range sigs {
		if sig <= 0 || sig > maxSignal || !runtimeActions.kept[sig] {
			continue
		}
		act := runtimeActions.act[sig]
		if err := rtSigactionRaw(sig, &act, nil); err != nil {
			return err
		}
	}
	return nil
}

// raise sends sig to this thread, as raise(3) does: the kernel acts on
// it before the system call returns, where a signal sent to the process
// may be taken by another thread after this one has gone on (to exit).
func raise(sig syscall.Signal) {
	runtime.LockOSThread()
	syscall.Tgkill(syscall.Getpid(), syscall.Gettid(), sig)
}
