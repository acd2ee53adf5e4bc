//go:build !linux

package sigfrom

import "syscall"

// Ending is empty where the signals' numbers and the runtime's handling
// of them have not been checked.
var Ending []syscall.Signal

// DaemonEnding is empty here, as Ending is.
var DaemonEnding []syscall.Signal
