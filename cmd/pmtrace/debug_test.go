package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

var (
	// what differs from run to run or between the programs: process
	// ids (in a line's prefix, a transaction's id and a PDU's sender
	// word), the agent's port, the socket's descriptor (the Go runtime
	// holds the low ones), and a transaction's elapsed time (in its
	// line and in its PDU's words)
	debugPID     = regexp.MustCompile(`\[\d+\]|id=0x[0-9a-f]+`)
	debugPort    = regexp.MustCompile(`port=\d+`)
	debugFD      = regexp.MustCompile(`fd=\d+`)
	debugElapsed = regexp.MustCompile(`data=\d+\.\d+\)`)
	debugWords   = regexp.MustCompile(`(?m)^(000: +1c +7051) +[0-9a-f]+ +([0-9a-f]+) +([0-9a-f]+) +([0-9a-f]+) `)
)

func maskDebug(s string, transact bool) string {
	s = debugPID.ReplaceAllString(s, "PID")
	s = debugPort.ReplaceAllString(s, "port=PORT")
	s = debugFD.ReplaceAllString(s, "fd=FD")
	if transact {
		s = debugElapsed.ReplaceAllString(s, "data=ELAPSED)")
		return debugWords.ReplaceAllString(s, "$1 PID $2 TIME TIME ")
	}
	return debugWords.ReplaceAllString(s, "$1 PID $2 $3 $4 ")
}

// TestDebugLinesAsPCP runs PCP's pmtrace and ours with each of
// pmtracestate's flags (-S) against a recording agent: standard error,
// libpcp_trace's diagnostic lines, must be the same but for process ids,
// ports, descriptors and elapsed times. -S 8 (libpcp_trace's C buffer
// pool, addresses and all) prints nothing of ours, and is left out.
func TestDebugLinesAsPCP(t *testing.T) {
	pcptest.NeedTool(t, "pmtrace")
	theirs, err := exec.LookPath("pmtrace")
	if err != nil {
		theirs = "/usr/bin/pmtrace"
	}
	ours := pcptest.GoCommand(t, ".")
	for _, args := range [][]string{
		{"-S", "1", "-v", "1.5", "tag"},
		{"-S", "2", "-v", "1.5", "tag"},
		{"-S", "4", "-v", "1.5", "tag"},
		{"-S", "7", "pt"},
		{"-S", "7", "-c", "2", "ct"},
		{"-S", "7", "-e", "true", "tx"},
		{"-S", "16", "pt"},
		{"-S", "17", "-v", "3", "ob"},
		{"-S", "23", "-e", "true", "tx"},
		{"-S", "18", "-c", "1", "ct"},
	} {
		name := strings.Join(args, " ")
		transact := strings.Contains(name, "-e")
		want := runTool(t, theirs, args)
		got := runTool(t, ours, args)
		w, g := maskDebug(want.stderr, transact), maskDebug(got.stderr, transact)
		if w == "" {
			t.Fatalf("pmtrace %s: PCP's printed no diagnostics", name)
		}
		if g != w {
			t.Errorf("pmtrace %s: stderr\nPCP:\n%s\nours:\n%s", name, w, g)
		}
	}
}
