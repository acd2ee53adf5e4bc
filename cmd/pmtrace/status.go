package main

import (
	"os"
	"syscall"
)

// rawStatus is the wait status as system(3) returns it: exit code in the
// second byte, signal in the first.
func rawStatus(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok {
		return int(ws)
	}
	return ps.ExitCode() << 8
}
