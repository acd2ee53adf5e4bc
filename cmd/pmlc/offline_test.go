package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pmlogger"
)

// runTool runs a pmlc with input in env and returns what it printed.
func runTool(t *testing.T, bin string, env []string, input string, args ...string) outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testbed.RunTimeout)
	defer cancel()
	c := exec.CommandContext(ctx, bin, args...)
	c.Env = env
	c.Stdin = strings.NewReader(input)
	stdout, stderr, code := clitest.RunCmd(t, c)
	return outcome{string(stdout), string(stderr), code}
}

// TestOfflineAgainstPCP gives PCP's pmlc and ours option sets and
// scripts that need no logger (private PCP_TMP_DIR and PCP_RUN_DIR with
// none in them): usage errors, syntax errors, lexical errors, commands
// that need a connection, failed connects and show loggers.
func TestOfflineAgainstPCP(t *testing.T) {
	t.Parallel()
	in := testbed.Need(t)
	theirs, err := in.Tool("pmlc")
	if err != nil {
		t.Skip(err)
	}
	ours := pcptest.GoCommand(t, ".")
	dir := t.TempDir()
	for _, d := range []string{"tmp", "run"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// 127.0.0.1 is this host only where the host's name has that
	// address; elsewhere (127.0.1.1 on a fresh Debian) PCP's pmlc asks the
	// pmcd there, the system's, for its loggers, which ours does not do
	loopbackLoggers := ""
	if pmlogger.IsLocalHost("127.0.0.1") {
		loopbackLoggers = "show loggers @127.0.0.1\n"
	}
	env := append(os.Environ(), "PCP_TMP_DIR="+filepath.Join(dir, "tmp"), "PCP_RUN_DIR="+filepath.Join(dir, "run"), "HOME="+dir)
	for _, c := range []struct {
		args  []string
		input string
	}{
		{nil, "foo\nstatus foo\nstatus\nfoo bar\nstatus\n"},
		{nil, "query sample.long\nlog mandatory on 1 sec x\nmandatory maybe x\n"},
		{nil, "connect 1\nconnect primary\nconnect port 1\nconnect socket @unix:/nonexistent\nconnect socket @local:\nconnect 1 @unix:\nconnect socket @unix:\n"},
		{nil, "!\nstatus !\nquit\nstatus foo,bar\nquery x\n\"\"\n\"open\n"},
		{nil, "timezone \"UTC\"\nstatus\ntimezone local\ntimezone logger extra\nsleep 10\nqa 3\nqa 0\n"},
		{nil, "show loggers\nshow loggers @localhost\nshow @local:\nshow loggers @unix:*\nhelp\n?\nh\n"},
		{nil, "new volume\nsync\nflush\ndisconnect\nnew\n# comment only\n\n   \t\nq\nstatus\n"},
		{nil, "status"},
		{nil, "quit"},
		{nil, "connect 12 @ 34\nconnect 99999999999\nconnect port 99999999999\n"},
		{nil, "show loggers @nosuchhost.invalid\nconnect 123 @nosuchhost.invalid\nconnect port 5 @nosuchhost.invalid\n" +
			loopbackLoggers + "connect 1 @localhost\nconnect primary @localhost\nconnect 5 @local:/nonexistent\n"},
		{[]string{"-i"}, "status\nquery { a\nb }\n"},
		{[]string{"-e"}, "status\nhelp\n"},
		{[]string{"-?"}, ""},
		{[]string{"-V"}, ""},
		{[]string{"-p", "abc"}, ""},
		{[]string{"-p", "0"}, ""},
		{[]string{"-h", "foo"}, ""},
		{[]string{"x"}, ""},
		{[]string{"1", "2"}, ""},
		{[]string{"-P", "12"}, ""},
		{[]string{"0"}, ""},
		{[]string{"-Z", "UTC", "-z"}, ""},
		{[]string{"-P", "-p", "3"}, ""},
		{[]string{"-h", "unix:/x", "-P"}, ""},
		{[]string{"-h", "unix:", "-p", "4"}, ""},
		{[]string{"-h", "local:", "99999999"}, "status\n"},
		{[]string{"-h", "local:/nonexistent"}, "status\n"},
		{[]string{"-P"}, "status\n"},
		{[]string{"-p", "1"}, "status\n"},
		{[]string{"-D", "nosuchflag"}, ""},
		{[]string{"--echo", "--port=1"}, "status\n"},
	} {
		want := runTool(t, theirs, env, c.input, c.args...)
		got := runTool(t, ours, env, c.input, c.args...)
		if want != got {
			t.Errorf("pmlc %q with %q:\nPCP's (status %d):\n%s%s\nours (status %d):\n%s%s", c.args, c.input,
				want.code, want.stdout, want.stderr, got.code, got.stdout, got.stderr)
		}
	}
}

// TestLoggerGoneAgainstPCP stops the logger while PCP's pmlc and ours
// are connected to it, between two statements: what they print about
// the lost connection and afterwards is the same.
func TestLoggerGoneAgainstPCP(t *testing.T) {
	t.Parallel()
	p := testbed.StartPMCD(t, testbed.Options{})
	ours := pcptest.GoCommand(t, ".")
	ourLogger := pcptest.GoCommand(t, "../pmlogger")
	theirs, err := p.Install().Tool("pmlc")
	if err != nil {
		t.Skip(err)
	}
	config := "log mandatory on 1 sec { sample.long.one }\n"
	dir := t.TempDir()
	run := func(bin, name string) outcome {
		l := startLogger(t, p, ourLogger, dir, name, config)
		ctx, cancel := context.WithTimeout(context.Background(), testbed.RunTimeout)
		defer cancel()
		c := exec.CommandContext(ctx, bin, "-h", "localhost", "-p", strconv.Itoa(l.port))
		c.Env = p.Env()
		stdin, err := c.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		pipe, err := c.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		c.Stderr = &stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		io.WriteString(stdin, "query sample.long.one\n")
		// the answer to the first query, then the logger goes
		out := bufio.NewReader(pipe)
		var stdout strings.Builder
		for !strings.Contains(stdout.String(), "mand on") {
			line, err := out.ReadString('\n')
			stdout.WriteString(line)
			if err != nil {
				t.Fatalf("no answer to query:\n%s%s", stdout.String(), stderr.String())
			}
		}
		l.stop()
		io.WriteString(stdin, "query sample.long.one\nstatus\nnew volume\nquery sample.long.one\n")
		stdin.Close()
		rest, _ := io.ReadAll(out)
		stdout.Write(rest)
		err = c.Wait()
		o := outcome{stdout.String(), stderr.String(), 0}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			o.code = ee.ExitCode()
		}
		return o
	}
	want := run(theirs, "pcp")
	got := run(ours, "ours")
	if testing.Verbose() {
		t.Logf("ours (status %d):\n%s%s", got.code, mask(got.stdout), got.stderr)
	}
	if mask(want.stdout) != mask(got.stdout) || want.stderr != got.stderr || want.code != got.code {
		t.Errorf("PCP's (status %d):\n%s%s\nours (status %d):\n%s%s", want.code, mask(want.stdout), want.stderr,
			got.code, mask(got.stdout), got.stderr)
	}
}

// TestTimeoutAgainstPCP: a logger that accepts and never answers, with
// PMLOGGER_REQUEST_TIMEOUT=1: PCP's pmlc and ours give up the same way.
func TestTimeoutAgainstPCP(t *testing.T) {
	t.Parallel()
	in := testbed.Need(t)
	theirs, err := in.Tool("pmlc")
	if err != nil {
		t.Skip(err)
	}
	ours := pcptest.GoCommand(t, ".")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	env := append(os.Environ(), "PMLOGGER_REQUEST_TIMEOUT=1")
	want := runTool(t, theirs, env, "status\n", "-h", "127.0.0.1", "-p", port)
	got := runTool(t, ours, env, "status\n", "-h", "127.0.0.1", "-p", port)
	if !strings.Contains(want.stderr, "Timeout") {
		t.Skipf("PCP's pmlc did not time out: %q", want.stderr)
	}
	if want != got {
		t.Errorf("PCP's (status %d):\n%s%s\nours (status %d):\n%s%s", want.code, want.stdout, want.stderr, got.code, got.stdout, got.stderr)
	}
}
