package local

import "syscall"

// companionAttr puts a companion in a process group of its own, so that
// the terminal's signals reach the tool alone, and has the kernel kill
// it when the tool ends without closing its context: its lifetime is the
// context's either way.
func companionAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
