package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/redistest"
)

// TestDescRepliesLikePCP: -s and -d of a series whose descriptor HMGET
// Redis answers other than PCP's schema has it (an error, another type,
// too few fields, a field not a string, a source not a SHA-1 hash).
// PCP's pmseries says what is wrong in libpcp_web's words and then
// crashes (SIGSEGV, its piped standard output lost); ours says the same
// and exits 1, its standard output what a terminal shows of PCP's (the
// series' heading).
func TestDescRepliesLikePCP(t *testing.T) {
	redistest.Need(t)
	bin := pcptest.NeedTool(t, "pmseries")
	conf := writeConf(t)
	srv := redistest.Start(t)
	const sid = "605fc77742cd0317597291329561ac4e50c0dd12"
	str := bulk("x")
	sha := bulk("01234567890123456789")
	for _, c := range []struct{ name, reply string }{
		{"error", "-ERR nope\r\n"},
		{"integer", ":6\r\n"},
		{"nil", "$-1\r\n"},
		{"status", "+OK\r\n"},
		{"garbage", "hello\r\n"},
		{"two fields", "*2\r\n" + str + str},
		{"indom an integer", "*6\r\n:1\r\n" + str + str + sha + str + str},
		{"pmid nil", "*6\r\n" + str + "$-1\r\n" + str + sha + str + str},
		{"semantics an array", "*6\r\n" + str + str + "*0\r\n" + sha + str + str},
		{"source an integer", "*6\r\n" + str + str + str + ":1\r\n" + str + str},
		{"source short", "*6\r\n" + str + str + str + str + str + str},
		{"type an error", "*6\r\n" + str + str + str + sha + "-ERR no\r\n" + str},
		{"units nil", "*6\r\n" + str + str + str + sha + str + "$-1\r\n"},
	} {
		for _, opt := range []string{"-s", "-d"} {
			script := []scripted{{"HMGET pcp:desc:series:", c.reply}, {"GET pcp:version:schema", bulk("2")}}
			port, _ := scriptedRedis(t, srv.Addr(), script...)
			argv := []string{"-c", conf, "-h", "127.0.0.1", "-p", port, opt, sid}
			_, wantErr, wantCode := runPCPBounded(t, bin, argv)
			if wantCode == 0 || wantCode == 1 {
				t.Errorf("%s %s: PCP's pmseries exited %d, not by a crash: has its behaviour changed?", c.name, opt, wantCode)
			}
			port, _ = scriptedRedis(t, srv.Addr(), script...)
			argv[5] = port
			var out, errOut bytes.Buffer
			code := run(context.Background(), append([]string{"pmseries"}, argv...), &out, &errOut)
			if code != 1 || out.String() != "\n"+sid+"\n" || errOut.String() != string(wantErr) {
				t.Errorf("%s %s: ours exit %d, stdout %q, stderr %q\nPCP's stderr %q", c.name, opt, code, out.String(), errOut.String(), wantErr)
			}
		}
	}
}

// TestListingRepliesLikePCP: the first listing of -l (and of -l -g),
// its HVALS answered other than with an array of strings. An answer not
// an array: PCP's pmseries and ours print the same and exit alike. An
// element not a string: PCP's prints libpcp_web's message and aborts (a
// double free, its piped standard output lost; by then it has at times
// gone on to the next element, using memory freed); ours prints the
// same message, once, and the names before the element (what a
// terminal shows of PCP's) and exits 1.
func TestListingRepliesLikePCP(t *testing.T) {
	redistest.Need(t)
	bin := pcptest.NeedTool(t, "pmseries")
	conf := writeConf(t)
	srv := redistest.Start(t)
	for _, c := range []struct {
		reply, names string
		crash        bool
	}{
		{"-ERR nope\r\n", "", false},
		{"+OK\r\n", "", false},
		{":3\r\n", "", false},
		{"$-1\r\n", "", false},
		{bulk("a"), "", false},
		{"*0\r\n", "", false},
		{"*2\r\n" + bulk("b") + bulk("a"), "b\na\n", false},
		{"*3\r\n:1\r\n" + bulk("a") + "$-1\r\n", "", true},
		{"*3\r\n" + bulk("b") + "$-1\r\n" + bulk("a"), "b\n", true},
		{"*2\r\n" + bulk("b") + "*0\r\n", "b\n", true},
	} {
		for _, glob := range [][]string{nil, {"-g", "*"}} {
			script := []scripted{{"HVALS pcp:map:label.name", c.reply}, {"GET pcp:version:schema", bulk("2")}}
			port, _ := scriptedRedis(t, srv.Addr(), script...)
			argv := append([]string{"-c", conf, "-h", "127.0.0.1", "-p", port, "-l"}, glob...)
			wantOut, wantErr, wantCode := runPCPBounded(t, bin, argv)
			port, _ = scriptedRedis(t, srv.Addr(), script...)
			argv[5] = port
			var out, errOut bytes.Buffer
			code := run(context.Background(), append([]string{"pmseries"}, argv...), &out, &errOut)
			switch {
			case !c.crash && outcome(out.Bytes(), errOut.Bytes(), code) != outcome(wantOut, wantErr, wantCode):
				t.Errorf("%q %v: ours:\n%s\nPCP's:\n%s", c.reply, glob, outcome(out.Bytes(), errOut.Bytes(), code), outcome(wantOut, wantErr, wantCode))
			case c.crash && (wantCode == 0 || wantCode == 1):
				t.Errorf("%q %v: PCP's pmseries exited %d, not by a crash: has its behaviour changed?", c.reply, glob, wantCode)
			case c.crash && (code != 1 || out.String() != c.names || errOut.String() != firstLine(ownLines(string(wantErr)))):
				t.Errorf("%q %v: ours exit %d, stdout %q, stderr %q\nPCP's stderr %q", c.reply, glob, code, out.String(), errOut.String(), wantErr)
			}
		}
	}
}

// firstLine is s's first line.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i+1]
	}
	return s
}
