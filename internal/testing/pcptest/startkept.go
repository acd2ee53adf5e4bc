package pcptest

import (
	"os/exec"
	"runtime"
	"sync"
)

// StartKept starts cmd from one thread that lives as long as the test
// binary. A child with Pdeathsig set gets its signal when the thread
// that forked it ends, not the process (Linux's prctl(PR_SET_PDEATHSIG),
// Go issue 27505), and a goroutine that locks its thread and returns
// ends that thread: the proc agent's credential switch does so, as do
// tests that connect with another user's file system ids. A daemon
// forked on such a thread was killed at a random moment of its test.
// Children started here outlive every such thread; the signal still
// comes when the test binary dies, which is what the tests set it for.
func StartKept(cmd *exec.Cmd) error {
	keptOnce.Do(func() {
		keptStarts = make(chan keptStart)
		go func() {
			runtime.LockOSThread() // never unlocked: this thread forks
			for s := range keptStarts {
				s.done <- s.cmd.Start()
			}
		}()
	})
	done := make(chan error, 1)
	keptStarts <- keptStart{cmd, done}
	return <-done
}

type keptStart struct {
	cmd  *exec.Cmd
	done chan error
}

var (
	keptOnce   sync.Once
	keptStarts chan keptStart
)
