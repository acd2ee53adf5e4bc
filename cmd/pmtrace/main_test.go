package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/trace"
)

// TestMain removes the command built for the tests.
func TestMain(m *testing.M) { os.Exit(pcptest.Main(m)) }

// recorder stands in for the agent: it welcomes programs and keeps what
// they send.
type recorder struct {
	ln    net.Listener
	mu    sync.Mutex
	bytes []byte
	wg    sync.WaitGroup
}

func newRecorder(t *testing.T) *recorder {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{ln: ln}
	r.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			r.wg.Go(func() { r.serve(c) })
		}
	})
	t.Cleanup(func() { ln.Close(); r.wg.Wait() })
	return r
}

func (r *recorder) serve(c net.Conn) {
	defer c.Close()
	c.Write(trace.AppendAck(nil, 1, trace.Version))
	b, _ := io.ReadAll(bufio.NewReader(c))
	r.mu.Lock()
	r.bytes = append(r.bytes, b...)
	r.mu.Unlock()
}

// take returns what arrived once the program has gone (it closed its
// connection on exit, so serve has returned when the listener closes).
func (r *recorder) take() []byte {
	r.ln.Close()
	r.wg.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.bytes
}

// maskPIDs blanks the sender pid and a transaction's time in each PDU.
func maskPIDs(b []byte) []byte {
	b = append([]byte(nil), b...)
	for off := 0; off+trace.HeaderLen <= len(b); {
		n := int(binary.BigEndian.Uint32(b[off:]))
		if n < trace.HeaderLen || off+n > len(b) {
			break
		}
		copy(b[off+8:off+12], "PPPP")
		if n >= 24 && b[off+14] == byte(trace.TypeTransact) {
			copy(b[off+16:off+24], "TTTTTTTT")
		}
		off += n
	}
	return b
}

type outcome struct {
	stdout, stderr string
	code           int
	pdus           []byte
}

func runTool(t *testing.T, bin string, args []string) outcome {
	t.Helper()
	r := newRecorder(t)
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{"PCP_TRACE_HOST=127.0.0.1", "PCP_TRACE_PORT=" + strconv.Itoa(r.ln.Addr().(*net.TCPAddr).Port), "PATH=/usr/bin:/bin"}
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return outcome{so.String(), se.String(), code, maskPIDs(r.take())}
}

// TestAsPCPsPmtrace runs PCP's pmtrace and ours with the same arguments
// against a recording agent: the PDUs (pids and elapsed times masked),
// standard output and exit status must be the same, and standard error
// where neither prints diagnostics of its own making.
func TestAsPCPsPmtrace(t *testing.T) {
	pcptest.NeedTool(t, "pmtrace")
	theirs, err := exec.LookPath("pmtrace")
	if err != nil {
		theirs = "/usr/bin/pmtrace"
	}
	ours := pcptest.GoCommand(t, ".")
	cases := []struct {
		args       []string
		sameStderr bool
	}{
		{[]string{"mytag"}, true},
		{[]string{"-q", "mytag"}, true},
		{[]string{"-v", "3.25", "obs_tag"}, true},
		{[]string{"-c", "0x10", "ctr"}, true},
		{[]string{"-c", " -1e400", "ctr"}, true},
		{[]string{"-v", "nan", "o"}, true},
		{[]string{"-v", "-nan", "o"}, true},
		{[]string{"-c", "inf", "c"}, true},
		// -v and -c are read by glibc's strtod, the whole word: an
		// empty word is 0, a NaN's payload is kept.
		{[]string{"-v", "", "o"}, true},
		{[]string{"-v", " ", "o"}, true},
		{[]string{"-v", "nan(123)", "o"}, true},
		{[]string{"-c", "-NAN(0x7)", "c"}, true},
		{[]string{"-v", "nan(", "o"}, true},
		{[]string{"-v", "0x1_0", "o"}, true},
		{[]string{"-v", "0x1.8", "o"}, true},
		{[]string{"-v", "1e", "o"}, true},
		{[]string{"-v", "infinit", "o"}, true},
		{[]string{"-c", "1e-320", "c"}, true},
		{[]string{"-e", "true", "tx"}, true},
		{[]string{"-e", "exit 3", "tx"}, true},
		{[]string{"-e", "kill -TERM $$", "tx"}, true},
		{[]string{"-q", "-e", "echo hello", "tx"}, true},
		{[]string{"-v", "abc", "o"}, true},
		{[]string{"-c", "1", "-v", "2", "o"}, true},
		{[]string{}, true},
		{[]string{"a", "b"}, true},
		{[]string{"-S", "zz", "p"}, true},
		{[]string{"-S", "0x0", "p"}, true},
		{[]string{"-h", "127.0.0.1", "p"}, true},
		{[]string{""}, true},
		{[]string{strings.Repeat("x", 255)}, true},
		{[]string{strings.Repeat("x", 200)}, true},
		// Option mistakes, worded as glibc's getopt words them.
		{[]string{"-x", "p"}, true},
		{[]string{"--help"}, true},
		{[]string{"--host", "p"}, true},
		{[]string{"-c"}, true},
		{[]string{"-S"}, true},
		{[]string{"-qZ", "t"}, true},
		{[]string{"-qv3", "t"}, true},
		{[]string{"-v3", "-q", "t"}, true},
		{[]string{"t", "-q"}, true},
		{[]string{"--", "-q"}, true},
		{[]string{"-h127.0.0.1", "-", "p"}, true},
		{[]string{"-:", "p"}, true},
		{[]string{"-?"}, true},
		{[]string{"-q?", "p"}, true},
		// -S is read as strtol reads it, the whole word.
		{[]string{"-S", " +0", "p"}, true},
		{[]string{"-S", "0b1", "p"}, true},
		{[]string{"-S", "1_0", "p"}, true},
		{[]string{"-S", "0o7", "p"}, true},
		{[]string{"-S", "08", "p"}, true},
		{[]string{"-S", "0x", "p"}, true},
		{[]string{"-S", "", "p"}, true},
		{[]string{"-S", "-0x100000000000000000", "p"}, true},
	}
	for _, c := range cases {
		want := runTool(t, theirs, c.args)
		got := runTool(t, ours, c.args)
		name := strings.Join(c.args, " ")
		// getopt's messages name the program as it was run (argv[0]
		// whole), pmtrace's own by its base name.
		want.stdout = strings.ReplaceAll(want.stdout, theirs, "ARGV0")
		want.stderr = strings.ReplaceAll(want.stderr, theirs, "ARGV0")
		got.stdout = strings.ReplaceAll(got.stdout, ours, "ARGV0")
		got.stderr = strings.ReplaceAll(got.stderr, ours, "ARGV0")
		if got.stdout != want.stdout || got.code != want.code {
			t.Errorf("pmtrace %s:\nPCP: %q exit %d\nours: %q exit %d", name, want.stdout, want.code, got.stdout, got.code)
		}
		if c.sameStderr && got.stderr != want.stderr {
			t.Errorf("pmtrace %s: stderr\nPCP: %q\nours: %q", name, want.stderr, got.stderr)
		}
		if !bytes.Equal(got.pdus, want.pdus) {
			t.Errorf("pmtrace %s: PDUs\nPCP: % x\nours: % x", name, want.pdus, got.pdus)
		}
	}
}
