// Package childproc starts the child processes that a long-lived
// program keeps: agents and companions talked to on pipes, and children
// that must die with the program.
//
// Linux sends a child's parent-death signal (SysProcAttr.Pdeathsig,
// prctl(PR_SET_PDEATHSIG)) when the thread that forked it ends, not the
// process (Go issue 27505), and Go ends a thread whenever a goroutine
// that locked it returns without unlocking: a credential switch on a
// locked thread does so. Start forks such children from one thread that
// lives as long as the program, so that they get the signal only when
// the program dies.
package childproc

import (
	"os/exec"
	"runtime"
	"sync"
)

// Start starts cmd, from the program's kept thread when cmd asks for a
// parent-death signal, else from the calling thread as cmd.Start does.
func Start(cmd *exec.Cmd) error {
	if !deathSignal(cmd) {
		return cmd.Start()
	}
	keptOnce.Do(func() {
		keptStarts = make(chan keptStart)
		go func() {
			// Never unlocked and never returning: the thread lives as
			// long as the program.
			runtime.LockOSThread()
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
