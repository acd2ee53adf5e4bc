package pcptest

import (
	"fmt"
	"os"
	"syscall"
)

// HowEnded says how a finished program ended, for tests that compare
// PCP's program with ours under a signal: "killed by <signal>" or "exit
// status N".
func HowEnded(ps *os.ProcessState) string {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return "killed by " + ws.Signal().String()
	}
	return fmt.Sprintf("exit status %d", ps.ExitCode())
}
