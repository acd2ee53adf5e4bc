//go:build !linux

package local

import "syscall"

// companionAttr puts a companion in a process group of its own; without
// Linux's parent-death signal, the end of its input ends it.
func companionAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
