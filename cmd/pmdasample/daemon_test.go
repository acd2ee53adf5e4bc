package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// TestControlStops runs the daemon on a pipe as pmcd does, stores -1 into
// sample.control and checks the agent answers the store and then exits
// with status 0, as PCP's does.
func TestControlStops(t *testing.T) {
	dir := t.TempDir()
	bin := pcptest.GoCommand(t, ".")
	cmd := exec.Command(bin, "-l", filepath.Join(dir, "sample.log"))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	// A pipe of the test's own, not StdoutPipe: Wait, which runs as soon
	// as the agent exits, closes StdoutPipe's reading end, and the agent
	// exits right after its last answer, which may then go unread.
	stdout, agentOut, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdout.Close()
	cmd.Stdout = agentOut
	err = cmd.Start()
	agentOut.Close()
	if err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, w := pdu.NewReader(stdout, pdu.DefaultTimeout), pdu.NewWriter(stdin)
	if _, err := pdu.AcceptAgent(ctx, r, w, 1); err != nil {
		t.Fatal(err)
	}
	call := func(m pdu.Message) pdu.Message {
		t.Helper()
		if err := w.WriteMessage(ctx, m, 3); err != nil {
			t.Fatal(err)
		}
		b, err := r.ReadPDU(ctx)
		if err != nil {
			t.Fatal(err)
		}
		reply, err := pdu.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		return reply
	}
	control := pcp.NewPMID(29, 0, 0)
	if d, ok := call(&pdu.DescReq{PMID: control}).(*pdu.Desc); !ok || d.Desc.Type != pcp.Type32 {
		t.Fatalf("descriptor of sample.control: %+v", d)
	}
	store := &pdu.Result{Result: pcp.Result{Sets: []pcp.ValueSet{{
		PMID: control, NumVal: 1, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: -1}},
	}}}}
	if e, ok := call(store).(*pdu.Error); !ok || e.Code != 0 {
		t.Fatalf("store of -1: %+v", e)
	}
	select {
	case err := <-exited:
		exited <- err
		if err != nil {
			t.Errorf("agent exit: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("agent did not exit after sample.control was set to -1")
	}
}
