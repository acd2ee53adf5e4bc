//go:build !linux

package childproc

import "os/exec"

// deathSignal is false where the parent-death signal is not Linux's
// per-thread one.
func deathSignal(*exec.Cmd) bool { return false }
