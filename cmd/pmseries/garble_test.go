package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/redistest"
)

// garblingRedis starts, for t's life, a proxy in front of the Redis at
// target that passes each command and its reply on, except a command
// that starts with garble, which it answers with reply before closing
// that connection; it gives the proxy's port.
func garblingRedis(t *testing.T, target, garble, reply string) string {
	t.Helper()
	port, _ := serveScripted(t, target, true, []scripted{{garble, reply}})
	return port
}

// TestRedisGarbageLaterLikePCP: a Redis that answers the set a query
// names, or a listing's hash, with garbage, part of a reply, nothing, or
// a reply of another type than an array, once the connection is made:
// PCP's pmseries and ours print the same and exit alike. PCP's
// pmNotifyErr lines, which say what hiredis made of the garbage, are
// left out of the comparison: whether PCP gets to print one before it
// exits varies from run to run.
func TestRedisGarbageLaterLikePCP(t *testing.T) {
	redistest.Need(t)
	bin := pcptest.NeedTool(t, "pmseries")
	conf := writeConf(t)
	srv := redistest.Start(t)
	loadPCP(t, bin, conf, srv.Port, filepath.Join(qaArchives, "sample-labels"))
	for _, c := range []struct {
		args   []string
		garble string
	}{
		{[]string{"sample.long.one"}, "SMEMBERS pcp:series:metric.name:"},
		{[]string{"no.such.metric"}, "SMEMBERS pcp:series:metric.name:"},
		// the second listing of -l: the label names are printed
		// first (a failure of the first, whose later steps PCP runs
		// but does not print, is not ours to match)
		{[]string{"-l"}, "HVALS pcp:map:inst.name"},
	} {
		// garbage, a reply cut short, none, and replies of other types
		for _, reply := range []string{"hello world\r\n", "$100\r\nabc", "", "+OK\r\n", ":5\r\n", "-WRONGTYPE no\r\n", "$-1\r\n", "$2\r\nab\r\n"} {
			argv := append([]string{"-c", conf, "-h", "127.0.0.1", "-p", garblingRedis(t, srv.Addr(), c.garble, reply)}, c.args...)
			wantOut, wantErr, wantCode := runPCPBounded(t, bin, argv)
			argv = append([]string{"-c", conf, "-h", "127.0.0.1", "-p", garblingRedis(t, srv.Addr(), c.garble, reply)}, c.args...)
			var out, errOut bytes.Buffer
			code := run(context.Background(), append([]string{"pmseries"}, argv...), &out, &errOut)
			if code != wantCode || out.String() != string(wantOut) || errOut.String() != ownLines(string(wantErr)) {
				t.Errorf("pmseries %v, %q for %s: exit %d, stdout %q, stderr %q\nPCP's: exit %d, stdout %q, stderr %q",
					c.args, reply, c.garble, code, out.String(), errOut.String(), wantCode, wantOut, wantErr)
			}
		}
	}
}

// ownLines are the lines of PCP's pmseries' standard error that it
// writes itself ("pmseries: ..."), without pmNotifyErr's, which may
// span lines (hiredis quotes the command, CRLFs and all).
func ownLines(s string) string {
	var b strings.Builder
	for l := range strings.Lines(s) {
		if strings.HasPrefix(l, "pmseries: ") {
			b.WriteString(l)
		}
	}
	return b.String()
}
