//go:build !linux

package sigdefault

import "syscall"

func restore(syscall.Signal) error { return ErrUnsupported }
