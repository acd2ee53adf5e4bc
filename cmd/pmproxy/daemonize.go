package main

import (
	"os"
	"os/exec"
	"syscall"
)

// daemonChild marks, in the environment, the copy of pmproxy that
// daemonize started; the copy takes it out again at once.
const daemonChild = "GOPCP_PMPROXY_DAEMON_CHILD"

// isDaemonChild says whether this process is that copy, and takes the
// mark out of its environment, so that nothing it starts inherits it.
func isDaemonChild() bool {
	if os.Getenv(daemonChild) != "1" {
		return false
	}
	os.Unsetenv(daemonChild)
	return true
}

// daemonize is PCP's pmproxy going into the background in daemon mode
// (neither -f nor -F): its options read, it forks, the parent exits 0
// whatever becomes of the child, and the child carries on in a session
// of its own without its standard input. Go cannot fork a running
// program, so the parent starts the same program again with the same
// arguments, marked as the child, standard output and error shared,
// standard input /dev/null. It returns the error of a start that
// failed; then, as PCP's pmproxy does when its fork fails, the caller
// keeps going in the foreground.
func daemonize() error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(self, os.Args[1:]...)
	cmd.Args[0] = os.Args[0]
	cmd.Env = append(os.Environ(), daemonChild+"=1")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
