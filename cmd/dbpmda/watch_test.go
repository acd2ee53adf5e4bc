package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// fakeXterm records its arguments, one a line, in $WATCH_OUT (written
// whole, then renamed, so that a reader never sees half of it).
const fakeXterm = "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$WATCH_OUT.tmp\" && mv \"$WATCH_OUT.tmp\" \"$WATCH_OUT\"\n"

// waitFile returns the contents of path once it exists. The window is
// started in the background by a shell that has already returned, so the
// file may come after dbpmda has ended; the bound is generous for a
// loaded machine.
func waitFile(t *testing.T, path string) string {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil {
			return string(b)
		}
	}
	t.Fatalf("%s never appeared", path)
	return ""
}

// TestWatchLikePCP runs "watch" in PCP's dbpmda and ours with an xterm
// that records how it was started, and with no xterm at all: the same
// window (title, geometry, colour, tail -f of the file), the same
// output, and without xterm the shell's complaint from both.
func TestWatchLikePCP(t *testing.T) {
	theirs := pcptest.NeedTool(t, "dbpmda")
	w := newWorld(t)
	ours := ourDbpmda(t)
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "xterm"), []byte(fakeXterm), 0o755); err != nil {
		t.Fatal(err)
	}
	logf := filepath.Join(w.dir, "agent.log")
	script := "watch " + logf + "\nwatch\nquit\n"
	cases := []struct {
		name string
		path string // $PATH: with the recording xterm, or none
	}{
		{"recording xterm", bin + ":/usr/bin:/bin"},
		{"no xterm", t.TempDir()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var outs, args []string
			for i, prog := range []string{theirs, ours} {
				rec := filepath.Join(t.TempDir(), "args"+itoa(int32(i)))
				env := append(append([]string{}, w.env...), "PATH="+tc.path, "WATCH_OUT="+rec, "DISPLAY=")
				out := clitest.DropNotices(runDbpmda(t, prog, w.dir, script, env))
				if tc.name == "no xterm" {
					// The shell's complaint comes from the background,
					// in two writes, anywhere among dbpmda's lines.
					if !strings.Contains(out, "sh: 1: ") || !strings.Contains(out, "xterm: not found\n") {
						t.Fatalf("%s without xterm did not have the shell complain:\n%s", prog, out)
					}
					out = strings.Replace(strings.Replace(out, "xterm: not found\n", "", 1), "sh: 1: ", "", 1)
				}
				outs = append(outs, out)
				if tc.name == "recording xterm" {
					args = append(args, waitFile(t, rec))
				}
			}
			compare(t, tc.name+": output", outs[1], outs[0])
			if len(args) == 2 {
				if !strings.Contains(args[0], "tail\n-f\n"+logf+"\n") {
					t.Fatalf("PCP's dbpmda started xterm with:\n%s", args[0])
				}
				compare(t, tc.name+": xterm's arguments", args[1], args[0])
			}
		})
	}
}

// TestDSONoDomainLikePCP opens PCP's sample DSO without a domain in PCP's
// dbpmda, and our sample agent the same way in ours: both run as domain
// 0, fetching by 0.C.I and not by the namespace's 29.C.I.
func TestDSONoDomainLikePCP(t *testing.T) {
	theirs := pcptest.NeedTool(t, "dbpmda")
	const dso = "/var/lib/pcp/pmdas/sample/pmda_sample.so"
	if _, err := os.Stat(dso); err != nil {
		pcptest.Missing(t, "PCP's sample DSO: "+err.Error())
	}
	w := newWorld(t)
	ours := ourDbpmda(t)
	root := "/var/lib/pcp/pmdas/sample/root"
	script := "open dso " + dso + " sample_init\nstatus\nfetch 29.0.5\nfetch 0.0.5\ndesc 0.0.5\ninstance 0.1\nfetch sample.long.one\nclose\n"
	want := clitest.DropNotices(runDbpmda(t, theirs, w.dir, script, w.env, "-n", root))
	got := runDbpmda(t, ours, w.dir, script, w.env, "-n", root)
	if !strings.Contains(want, "Connection:             dso") || !strings.Contains(want, "0.0.5 (<noname>): numval: 3") {
		t.Fatalf("PCP's dbpmda did not run the DSO as domain 0:\n%s", want)
	}
	compare(t, "open dso without a domain", got, want)
}
