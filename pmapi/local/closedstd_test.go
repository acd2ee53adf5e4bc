package local

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestCompanionClosedStdout runs a context from a program whose standard
// input and output are closed, so that the pipe to its companion may be
// given fds 0 and 1: when the companion is gone, a request fails with
// an error; the program is not killed by SIGPIPE, as Go kills one
// writing a broken pipe on fd 1.
func TestCompanionClosedStdout(t *testing.T) {
	if os.Getenv("LOCAL_CLOSED_STDOUT") == "1" {
		closedStdoutChild(t)
		return
	}
	find := companionFinder(t)
	bin, _ := find()
	var out bytes.Buffer
	cmd := exec.Command(os.Args[0], "-test.run=^TestCompanionClosedStdout$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "LOCAL_CLOSED_STDOUT=1", "LOCAL_COMPANION="+bin)
	cmd.Stderr = &out
	err := cmd.Run()
	t.Logf("%s", out.Bytes())
	if err != nil {
		t.Fatalf("%v: %s", err, out.Bytes())
	}
}

func closedStdoutChild(t *testing.T) {
	hideInProcess(t, "sample_init")
	_ = syscall.Close(0)
	_ = syscall.Close(1)
	var warn bytes.Buffer
	c := sampleContext(t, &warn, WithCompanion(func() (string, error) { return os.Getenv("LOCAL_COMPANION"), nil }))
	defer c.Close()
	p, ok := c.agents[29].(*pipeAgent)
	if !ok {
		t.Fatalf("the sample agent is a %T; warnings %q", c.agents[29], warn.String())
	}
	if f, ok := p.c.in.(*os.File); ok {
		fmt.Fprintf(os.Stderr, "pipe to the companion on fd %d\n", f.Fd())
	}
	_ = p.c.cmd.Process.Kill()
	<-p.c.done
	ctx := context.Background()
	if _, err := c.LookupDesc(ctx, pcp.NewPMID(29, 0, 0)); err == nil {
		t.Errorf("LookupDesc after the companion died: no error")
	}
	var r pcp.Result
	_, err := c.Fetch(ctx, []pcp.PMID{pcp.NewPMID(29, 0, 0)}, &r)
	if err != nil || len(r.Sets) != 1 || r.Sets[0].NumVal >= 0 {
		t.Errorf("fetch after the companion died: %+v, %v; want a set with an error", r.Sets, err)
	} else {
		fmt.Fprintf(os.Stderr, "fetch after the companion died: %v\n", pcp.Error(r.Sets[0].NumVal))
	}
}
