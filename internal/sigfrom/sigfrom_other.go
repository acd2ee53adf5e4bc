//go:build !(linux && amd64)

package sigfrom

import "syscall"

func watch([]syscall.Signal) error { return ErrUnsupported }

func last(syscall.Signal) (Sender, bool) { return Sender{}, false }
