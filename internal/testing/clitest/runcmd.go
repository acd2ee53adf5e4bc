package clitest

import (
	"bytes"
	"errors"
	"os/exec"
	"testing"
)

// RunCmd runs cmd, PCP's tool as a test set it up (arguments,
// environment, standard input), and returns what it wrote and its exit
// status (-1 if a signal ended it), for comparing with ours. A program
// that cannot be run fails t.
func RunCmd(t testing.TB, cmd *exec.Cmd) (stdout, stderr []byte, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("%s: %v", cmd.Path, err)
		}
		code = exit.ExitCode()
	}
	return out.Bytes(), errb.Bytes(), code
}
