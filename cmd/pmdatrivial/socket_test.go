package main

import (
	"context"
	"net"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopcp/gopcp/agents/trivial"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// TestUnixSocket runs the daemon with -u, connects as pmcd does to a socket
// agent, asks for the descriptor and value of trivial.time, and checks the
// daemon exits with status 0 once pmcd hangs up.
func TestUnixSocket(t *testing.T) {
	dir := t.TempDir()
	bin := pcptest.GoCommand(t, ".")
	sock := filepath.Join(dir, "trivial.socket")
	cmd := exec.Command(bin, "-u", sock, "-l", filepath.Join(dir, "trivial.log"))
	if err := cmd.Start(); err != nil {
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
	var conn net.Conn
	for {
		var err error
		if conn, err = (&net.Dialer{}).DialContext(ctx, "unix", sock); err == nil {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("agent never listened: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	r, w := pdu.NewReader(conn, pdu.DefaultTimeout), pdu.NewWriter(conn)
	if _, err := pdu.AcceptAgent(ctx, r, w, 1); err != nil {
		t.Fatal(err)
	}
	call := func(m pdu.Message) pdu.Message {
		t.Helper()
		if err := w.WriteMessage(ctx, m, 0); err != nil {
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
	if d, ok := call(&pdu.DescReq{PMID: trivial.PMID}).(*pdu.Desc); !ok || d.Desc.Type != pcp.TypeU64 {
		t.Errorf("DESC_REQ answered %+v", d)
	}
	res, ok := call(&pdu.Fetch{PMIDs: []pcp.PMID{trivial.PMID}}).(*pdu.Result)
	if !ok || len(res.Sets) != 1 || res.Sets[0].NumVal != 1 {
		t.Fatalf("FETCH answered %+v", res)
	}
	conn.Close()
	select {
	case err := <-exited:
		exited <- err
		if err != nil {
			t.Errorf("agent exit: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("agent did not exit after pmcd hung up")
	}
}
