package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// faultyRedis is a server that reads the first command of each
// connection and answers it with reply (closing after it when closeAfter),
// or with nothing, holding the connection, when reply is "".
func faultyRedis(t *testing.T, reply string, closeAfter bool) string {
	t.Helper()
	addr := clitest.ServeLoopback(t, func(c net.Conn) {
		buf := make([]byte, 4096)
		if _, err := c.Read(buf); err != nil {
			return
		}
		if reply != "" {
			c.Write([]byte(reply))
		}
		if !closeAfter {
			// held open, unanswered, until the test ends
			io.Copy(io.Discard, c)
		}
	})
	return strconv.Itoa(addr.Port)
}

// TestRedisFaultsLikePCP: a server that answers pmseries' first command
// with garbage, or closes part way through its reply or before it, is
// no Redis to PCP's pmseries, which says so in an Info line and exits 0;
// ours must say the same.
func TestRedisFaultsLikePCP(t *testing.T) {
	bin := pcptest.NeedTool(t, "pmseries")
	mask := func(b []byte) string { return notifyStamp.ReplaceAllString(string(b), "[TIME] pmseries(PID) ") }
	for _, c := range []struct {
		name       string
		reply      string
		closeAfter bool
	}{
		{"garbage", "hello world\r\n", false},
		{"cut in a bulk reply", "$100\r\nabc", true},
		{"closed at once", "", true},
		{"cut in an error reply", "-ERR no", true},
	} {
		for _, args := range [][]string{{"kernel.all.load"}, {"-l"}} {
			port := faultyRedis(t, c.reply, c.closeAfter)
			argv := append([]string{"-h", "127.0.0.1", "-p", port}, args...)
			wantOut, wantErr, wantCode := runPCPBounded(t, bin, argv)
			var out, errOut bytes.Buffer
			code := run(context.Background(), append([]string{"pmseries"}, argv...), &out, &errOut)
			if code != wantCode || out.String() != string(wantOut) || mask(errOut.Bytes()) != mask(wantErr) {
				t.Errorf("%s, pmseries %v: exit %d, stdout %q, stderr %q\nPCP's: exit %d, stdout %q, stderr %q",
					c.name, args, code, out.String(), errOut.String(), wantCode, wantOut, wantErr)
			}
		}
	}
}

// runPCPBounded runs PCP's pmseries, which waits for ever on some faults:
// a run that outlasts a minute is a test failure, not a hang.
func runPCPBounded(t *testing.T, bin string, argv []string) ([]byte, []byte, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, argv...)
	// PCP's pmseries crashes on some of these replies: no core file
	// where cores go to the working directory, and that directory a
	// private one.
	pcptest.NoCores(t)
	cmd.Dir = t.TempDir()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("PCP's pmseries %v did not end", argv)
	}
	var ee *exec.ExitError
	code := 0
	if err != nil {
		if !errors.As(err, &ee) {
			t.Fatal(err)
		}
		code = ee.ExitCode()
	}
	return out.Bytes(), errb.Bytes(), code
}

// TestRedisHangsBounded: where PCP's pmseries waits for ever (a server
// that never answers; a reply that announces a gigabyte and sends three
// bytes), ours ends: the first within the command timeout (the test's
// context stands for it, resp.DefaultTimeout being a minute), the second
// at once, a reply over resp's bulk bound being no reply. Each says in
// PCP's Info line that it found no Redis, and exits 0 as PCP's does then.
func TestRedisHangsBounded(t *testing.T) {
	for _, c := range []struct {
		name, reply, why string
	}{
		{"never answers", "", "no reply in "},
		{"a gigabyte announced", "$1073741824\r\nabc", "Command(cluster nodes) reply error(NULL)."},
		{"a billion elements announced", "*1000000000\r\n", "Command(cluster nodes) reply error(NULL)."},
	} {
		port := faultyRedis(t, c.reply, false)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		var out, errOut bytes.Buffer
		code := run(ctx, []string{"pmseries", "-h", "127.0.0.1", "-p", port, "kernel.all.load"}, &out, &errOut)
		cancel()
		if code != 0 || out.Len() != 0 || !strings.Contains(errOut.String(), "Info: Cannot connect to Redis: "+c.why) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", c.name, code, out.String(), errOut.String())
		}
	}
}
