package testbed

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// RunTimeout bounds a tool started by Run or RunInput.
const RunTimeout = 2 * time.Minute

// Result is the outcome of running a PCP tool.
type Result struct {
	Stdout, Stderr string
	// ExitCode is the tool's exit status, or -1 if it did not exit
	// normally (not found, killed, timed out).
	ExitCode int
	// Err is nil exactly when the tool ran and exited with status 0.
	Err error
}

// Command prepares a PCP tool (found as by Install.Tool) to run with the
// bed's environment, so a tool without -h reaches this pmcd through
// PMCD_SOCKET or PMCD_PORT. Callers still pass -h Host() when they want
// the TCP path explicitly.
func (p *PMCD) Command(ctx context.Context, tool string, args ...string) (*exec.Cmd, error) {
	path, err := p.in.Tool(tool)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = p.Env()
	cmd.Dir = p.dir
	// A killed tool must not leave Wait blocked on pipes held open by
	// grandchildren.
	cmd.WaitDelay = 5 * time.Second
	return cmd, nil
}

// Run runs a PCP tool against this pmcd and waits for it.
func (p *PMCD) Run(tool string, args ...string) Result {
	return p.RunInput(nil, tool, args...)
}

// RunInput is Run with the given standard input, for tools such as pmlc
// that read commands.
func (p *PMCD) RunInput(stdin []byte, tool string, args ...string) Result {
	ctx, cancel := context.WithTimeout(context.Background(), RunTimeout)
	defer cancel()
	return p.RunContext(ctx, stdin, tool, args...)
}

// RunContext is RunInput under the caller's context.
func (p *PMCD) RunContext(ctx context.Context, stdin []byte, tool string, args ...string) Result {
	cmd, err := p.Command(ctx, tool, args...)
	if err != nil {
		return Result{ExitCode: -1, Err: err}
	}
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	res := Result{Stdout: stdout.String(), Stderr: stderr.String(), ExitCode: -1}
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	if err != nil {
		var exit *exec.ExitError
		if ctx.Err() != nil || !errors.As(err, &exit) {
			res.ExitCode = -1
		}
		res.Err = fmt.Errorf("%s %s: %w: %s", tool, strings.Join(args, " "), err, strings.TrimSpace(res.Stderr))
	}
	return res
}
