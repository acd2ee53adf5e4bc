package pcptest

import (
	"os/exec"

	"github.com/gopcp/gopcp/internal/childproc"
)

// StartKept starts cmd, whose SysProcAttr sets Pdeathsig, from one
// thread that lives as long as the test binary (childproc.Start): a
// daemon forked on a thread that a test's goroutine locks and ends (the
// proc agent's credential switch, tests that connect with another
// user's file system ids) was killed at a random moment of its test.
// The signal still comes when the test binary dies, which is what the
// tests set it for.
func StartKept(cmd *exec.Cmd) error {
	return childproc.Start(cmd)
}
