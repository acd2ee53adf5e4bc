package main

import (
	"bytes"
	"context"
	"net"
	"os/exec"
	"regexp"
	"strconv"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// notifyStamp is the start of a pmNotifyErr line: its time and the
// process id differ between two runs.
var notifyStamp = regexp.MustCompile(`(?m)^\[[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d\] pmseries\(\d+\) `)

// TestRedisUnreachableLikePCP: with no Redis where pmseries looks (a port
// nothing listens on, a host that does not resolve), PCP's pmseries says
// so in an Info line and exits 0, for queries, loads and metadata
// reports alike; ours must say the same.
func TestRedisUnreachableLikePCP(t *testing.T) {
	bin := pcptest.NeedTool(t, "pmseries")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close() // a port just freed: nothing listens there
	archive := clitest.QAArchive(t, "20180102")
	for _, args := range [][]string{
		{"-h", "127.0.0.1", "-p", closed, "kernel.all.load"},
		{"-h", "127.0.0.1", "-p", closed, "-q", "kernel.all.load"},
		{"-h", "127.0.0.1", "-p", closed, "-d", "0123"},
		{"-h", "127.0.0.1", "-p", closed, "-l"},
		{"-h", "127.0.0.1", "-p", closed, "-Z", "UTC", "-i", "kernel.all.load"},
		{"-h", "127.0.0.1", "-p", closed, "--load", archive},
		{"-h", "nosuchhost.invalid", "-p", closed, "kernel.all.load"},
	} {
		wantOut, wantErr, wantCode := clitest.RunCmd(t, exec.Command(bin, args...))
		var out, errOut bytes.Buffer
		code := run(context.Background(), append([]string{"pmseries"}, args...), &out, &errOut)
		mask := func(b []byte) string { return notifyStamp.ReplaceAllString(string(b), "[TIME] pmseries(PID) ") }
		if code != wantCode || out.String() != string(wantOut) || mask(errOut.Bytes()) != mask(wantErr) {
			t.Errorf("pmseries %v: exit %d, stdout %q, stderr %q\nPCP's: exit %d, stdout %q, stderr %q",
				args, code, out.String(), errOut.String(), wantCode, wantOut, wantErr)
		}
	}
}
