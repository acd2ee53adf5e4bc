package sigfrom

import (
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// What the handler (sigfrom_linux_amd64.s) reads and writes, by signal
// number: the siginfo's pid and uid as one word (the pid in the low half,
// as they lie in the siginfo), whether a signal came, and the handler it
// hands the signal on to. The handler only reads next, which Watch sets
// before installing it.
var (
	senders [maxSignal + 1]uint64
	seen    [maxSignal + 1]uint32
	next    [maxSignal + 1]uintptr
)

// trampoline is the handler; trampolineAddr its address as the kernel
// must call it (a Go func value of an assembly function would be a
// wrapper for Go's calling convention).
func trampoline()
func trampolineAddr() uintptr

// sigaction is the kernel's struct sigaction on amd64.
type sigaction struct {
	handler  uintptr
	flags    uint64
	restorer uintptr
	mask     uint64
}

const (
	sigDefault = 0 // SIG_DFL
	sigIgnore  = 1 // SIG_IGN
	saSiginfo  = 0x4
)

var mu sync.Mutex

func rtSigaction(sig syscall.Signal, act, old *sigaction) error {
	_, _, e := syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig),
		uintptr(unsafe.Pointer(act)), uintptr(unsafe.Pointer(old)), 8, 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

func watch(sigs []syscall.Signal) error {
	mu.Lock()
	defer mu.Unlock()
	self := trampolineAddr()
	for _, sig := range sigs {
		if sig <= 0 || sig > maxSignal {
			return fmt.Errorf("sigfrom: signal %d out of range", int(sig))
		}
		var old sigaction
		if err := rtSigaction(sig, nil, &old); err != nil {
			return fmt.Errorf("sigfrom: %v: %w", sig, err)
		}
		if old.handler == self {
			continue
		}
		if old.handler == sigDefault || old.handler == sigIgnore || old.flags&saSiginfo == 0 {
			return fmt.Errorf("sigfrom: %v is not handled by the Go runtime (signal.Notify it first)", sig)
		}
		// The same flags, mask and restorer: only the first
		// instruction the kernel runs changes.
		atomic.StoreUintptr(&next[sig], old.handler)
		act := old
		act.handler = self
		if err := rtSigaction(sig, &act, nil); err != nil {
			return fmt.Errorf("sigfrom: %v: %w", sig, err)
		}
	}
	return nil
}

func last(sig syscall.Signal) (Sender, bool) {
	if sig <= 0 || sig > maxSignal || atomic.LoadUint32(&seen[sig]) == 0 {
		return Sender{}, false
	}
	w := atomic.LoadUint64(&senders[sig])
	return Sender{PID: int(int32(uint32(w))), UID: int(uint32(w >> 32))}, true
}
