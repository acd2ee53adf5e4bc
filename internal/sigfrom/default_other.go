//go:build !linux || mips || mipsle || mips64 || mips64le

package sigfrom

import (
	"errors"
	"syscall"
)

var errNoDefault = errors.New("sigfrom: default actions cannot be set on this platform")

func setDefault([]syscall.Signal) error { return errNoDefault }

func giveBack([]syscall.Signal) error { return errNoDefault }

func raise(sig syscall.Signal) { syscall.Kill(syscall.Getpid(), sig) }
