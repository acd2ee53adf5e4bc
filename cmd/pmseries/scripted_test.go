package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/series/resp"
)

// scripted is a reply a scriptedRedis gives, in RESP, to a command that
// starts with prefix (its arguments joined by spaces); an empty reply
// closes the connection instead.
type scripted struct{ prefix, reply string }

// bulk is s as a RESP bulk string.
func bulk(s string) string { return "$" + strconv.Itoa(len(s)) + "\r\n" + s + "\r\n" }

// talk is what a scriptedRedis was asked: each command as "N args...",
// N the number of the connection it came on, from 1.
type talk struct {
	mu   sync.Mutex
	cmds []string
}

func (tk *talk) add(conn int, args []string) {
	tk.mu.Lock()
	tk.cmds = append(tk.cmds, strconv.Itoa(conn)+" "+strings.Join(args, " "))
	tk.mu.Unlock()
}

// lines are the commands asked, those keep accepts.
func (tk *talk) lines(keep func(string) bool) []string {
	tk.mu.Lock()
	defer tk.mu.Unlock()
	var out []string
	for _, c := range tk.cmds {
		if keep(c) {
			out = append(out, c)
		}
	}
	return out
}

// scriptedRedis starts, for t's life, a server that answers each
// command the first of script matching it gives a reply for, and passes
// every other command on to the Redis at target, one at a time, its
// reply back. It gives the port and the record of what it was asked.
func scriptedRedis(t *testing.T, target string, script ...scripted) (string, *talk) {
	t.Helper()
	return serveScripted(t, target, false, script)
}

// serveScripted is scriptedRedis, closing a connection after a scripted
// reply when closeAfter.
func serveScripted(t *testing.T, target string, closeAfter bool, script []scripted) (string, *talk) {
	t.Helper()
	tk := &talk{}
	var mu sync.Mutex
	conns := 0
	addr := clitest.ServeLoopback(t, func(c net.Conn) {
		mu.Lock()
		conns++
		n := conns
		mu.Unlock()
		var up net.Conn
		var upReplies *resp.Reader
		var raw bytes.Buffer
		defer func() {
			if up != nil {
				up.Close()
			}
		}()
		commands := resp.NewReader(bufio.NewReader(c), resp.Limits{})
		for {
			v, err := commands.Read()
			if err != nil {
				return
			}
			args := v.Strings()
			tk.add(n, args)
			if reply, ok := scriptFor(script, args); ok {
				if reply == "" {
					closeGently(c)
					return
				}
				if _, err := c.Write([]byte(reply)); err != nil || closeAfter {
					return
				}
				continue
			}
			if up == nil {
				if up, err = net.Dial("tcp", target); err != nil {
					return
				}
				upReplies = resp.NewReader(bufio.NewReader(io.TeeReader(up, &raw)), resp.Limits{})
			}
			raw.Reset()
			if _, err := up.Write(resp.AppendCommand(nil, args...)); err != nil {
				return
			}
			if _, err := upReplies.Read(); err != nil {
				return
			}
			if _, err := c.Write(raw.Bytes()); err != nil {
				return
			}
		}
	})
	return strconv.Itoa(addr.Port), tk
}

// closeGently closes c as a server closing its side: the client reads
// the end (EOF) whatever it sent after, the commands it had pipelined
// read and dropped (a close with them unread would have the kernel
// reset the connection, and PCP's pmseries, seeing a reset rather than
// the end, would say "Lost connection to Redis." or not by timing).
// The client's own close, or the test's end, ends it.
func closeGently(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok && tc.CloseWrite() == nil {
		io.Copy(io.Discard, c)
	}
}

func scriptFor(script []scripted, args []string) (string, bool) {
	cmd := strings.Join(args, " ")
	for _, s := range script {
		if strings.HasPrefix(cmd, s.prefix) {
			return s.reply, true
		}
	}
	return "", false
}

// outcome is a run's standard output, error (pmNotifyErr's stamps
// masked) and exit status, for comparison.
func outcome(stdout, stderr []byte, code int) string {
	return fmt.Sprintf("exit %d\nstdout:\n%sstderr:\n%s", code, stdout,
		notifyStamp.ReplaceAllString(string(stderr), "[TIME] pmseries(PID) "))
}

// answer is how one pmseries ran: its output, exit status and what it
// asked a scriptedRedis.
type answer struct {
	out, errOut []byte
	code        int
	talk        *talk
}

// outcome is the answer for comparison, as outcome formats it.
func (a answer) outcome() string { return outcome(a.out, a.errOut, a.code) }

// throughScript runs PCP's pmseries and then ours with the
// configuration conf and args, each through a scriptedRedis of its own
// in front of target answering as script says.
func throughScript(t *testing.T, bin, target, conf string, script []scripted, args ...string) (pcps, ours answer) {
	t.Helper()
	port, tk := scriptedRedis(t, target, script...)
	argv := append([]string{"-c", conf, "-h", "127.0.0.1", "-p", port}, args...)
	pcps.out, pcps.errOut, pcps.code = runPCPBounded(t, bin, argv)
	pcps.talk = tk
	port, ours.talk = scriptedRedis(t, target, script...)
	argv[5] = port
	var out, errOut bytes.Buffer
	ours.code = run(context.Background(), append([]string{"pmseries"}, argv...), &out, &errOut)
	ours.out, ours.errOut = out.Bytes(), errOut.Bytes()
	return pcps, ours
}
