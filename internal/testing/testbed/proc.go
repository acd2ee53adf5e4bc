package testbed

import (
	"errors"
	"os/exec"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// proc is a daemon the test bed started in a process group of its own, so
// that anything it forks (pmcd's agents) can be cleaned up with it.
type proc struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has been reaped
	err  error         // Wait's result; read only after done is closed
}

func startProc(cmd *exec.Cmd) (*proc, error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	// A test binary that dies without its cleanups (go test's timeout
	// panics and exits) must not leave its daemons running beside
	// others: the kernel kills them when it goes. (A daemon that changes
	// its user, as PCP's pmcd does when started as root, loses this,
	// and is stopped by the cleanups alone.)
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	if err := pcptest.StartKept(cmd); err != nil {
		return nil, err
	}
	p := &proc{cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

func (p *proc) pid() int { return p.cmd.Process.Pid }

// exited reports whether the process has ended.
func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// stop asks the process to finish with SIGTERM, which lets pmcd shut its
// agents down and pmlogger close its archive, and falls back to SIGKILL
// for the whole process group after grace.
func (p *proc) stop(grace time.Duration) error {
	if p.exited() {
		return nil
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return nil
	case <-time.After(grace):
	}
	if p.exited() {
		return nil
	}
	// The leader is not yet reaped, so the group id is still ours and
	// cannot name an unrelated process group.
	_ = syscall.Kill(-p.pid(), syscall.SIGKILL)
	select {
	case <-p.done:
	case <-time.After(grace):
		return errors.New("testbed: process did not die after SIGKILL")
	}
	return errors.New("testbed: process ignored SIGTERM and was killed")
}
