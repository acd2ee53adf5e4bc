package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// sessionRun is one pmlogger run under -x 3: what the launcher wrote, and
// what became of the logger.
type sessionRun struct {
	log      string // the session's part of the log, masked
	exited   bool   // pmlogger ended by itself
	detached bool   // it kept logging after the script
	note     string // the port map file's note line
	base     string
}

// runSession starts a pmlogger (PCP's when pcp is set) with a pipe on
// descriptor 3, writes script to it, closes it when eof is set, and
// reports what happened.
func runSession(t *testing.T, p *testbed.PMCD, bin string, pcp bool, script string, eof bool) sessionRun {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	if err := os.WriteFile(cfg, []byte("log mandatory on 50 msec { sample.long.one sample.colour }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "archive")
	logPath := filepath.Join(dir, "log")
	args := []string{"-x", "3", "-h", p.Host(), "-c", cfg, "-l", logPath, base}
	cmd := loggerCommand(t, p, bin, pcp, args...)
	// the control port from a private one, not PCP's 4330
	cmd.Env = append(cmd.Env, "PMLOGGER_PORT="+strconv.Itoa(freePortBase(t)))
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.ExtraFiles = []*os.File{r}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	waitRecords := func(n int) {
		for deadline := time.Now().Add(30 * time.Second); completeRecords(t, base) < n; {
			if time.Now().After(deadline) {
				log, _ := os.ReadFile(logPath)
				t.Fatalf("no records from pmlogger:\n%s", log)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitRecords(3)
	run := sessionRun{base: base}
	for _, e := range p.Env() {
		if tmp, ok := strings.CutPrefix(e, "PCP_TMP_DIR="); ok {
			b, _ := os.ReadFile(filepath.Join(tmp, "pmlogger", strconv.Itoa(cmd.Process.Pid)))
			if lines := strings.Split(string(b), "\n"); len(lines) > 3 {
				run.note = lines[3]
			}
		}
	}
	w.WriteString(script)
	if eof {
		w.Close()
	}
	select {
	case err := <-done:
		run.exited = true
		if err != nil {
			t.Errorf("pmlogger (PCP's: %v) failed: %v", pcp, err)
		}
	case <-time.After(2 * time.Second):
		// Still logging: check it goes on writing records.
		w.Close()
		n := completeRecords(t, base)
		waitRecords(n + 3)
		run.detached = true
		cmd.Process.Signal(os.Interrupt)
		<-done
	}
	w.Close()
	log, _ := os.ReadFile(logPath)
	run.log = maskSession(string(log))
	return run
}

// maskSession keeps the session's messages of a log: the dialogs and the
// reason for exiting, with times, sizes and process ids masked.
func maskSession(log string) string {
	// PCP 6.0.3's child for the failed pmconfirm exits through
	// pmlogger's exit handlers, which write a "Log finished" line before
	// the failure is said: kept, as ours writes it too.
	keep := regexp.MustCompile(`(?s)(\nLog finished [^\n]*\n)?\n(Error|Warning): pmconfirm.*?(\n\n\[|\n\[|$)|Error: [a-z]+ recording session[^\n]*\n|Info: pmlogger: [^\n]*`)
	mask := regexp.MustCompile(`\d+ (seconds|minutes)|[\d.]+ [KM]?bytes|TERM \d+|\[[^]\n]*\] \S+\(\d+\)|Log finished [^\n]*`)
	var b strings.Builder
	for _, m := range keep.FindAllString(log, -1) {
		b.WriteString(mask.ReplaceAllString(m, "X"))
		b.WriteString("\n--\n")
	}
	return b.String()
}

// TestSessionAgainstPCP drives PCP's pmlogger and ours through -x 3 with
// the same launcher scripts: a detach keeps the logger logging, a quit or
// end of file ends it with a complete archive, and the dialogs and exit
// messages in the logs are the same.
func TestSessionAgainstPCP(t *testing.T) {
	p := testbed.StartPMCD(t, testbed.Options{})
	bin := pcptest.GoCommand(t, ".")
	for _, tc := range []struct {
		name, script string
		eof, exits   bool
	}{
		{"detach", "V0\nFmyfolio\nPlauncher\nR\nD\n", false, false},
		{"quit", "V0\nFmyfolio\nPlauncher\nQ\n", false, true},
		{"eof", "V0\nFmyfolio\n", true, true},
		{"status then quit", "V0\n?\nQ\n", false, true},
		{"illegal", "V0\nZzz\n", false, true},
		{"incomplete", "V0\nQQ", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ours := runSession(t, p, bin, false, tc.script, tc.eof)
			want := runSession(t, p, bin, true, tc.script, tc.eof)
			if ours.exited != tc.exits || want.exited != tc.exits {
				t.Errorf("exited: ours %v, PCP's %v, want %v", ours.exited, want.exited, tc.exits)
			}
			if ours.note != "-x 3" || want.note != ours.note {
				t.Errorf("port map note: ours %q, PCP's %q", ours.note, want.note)
			}
			if ours.log != want.log {
				t.Errorf("session messages differ\nPCP's:\n%s\nours:\n%s", want.log, ours.log)
			}
			if ours.exited {
				res := p.Run("pmlogcheck", ours.base)
				if res.Err != nil || res.Stdout != "" || res.Stderr != "" {
					t.Errorf("PCP's pmlogcheck: %v\n%s%s", res.Err, res.Stdout, res.Stderr)
				}
			}
		})
	}
}

// TestSessionBadFD checks -x's argument as PCP's pmlogger does.
func TestSessionBadFD(t *testing.T) {
	p := testbed.StartPMCD(t, testbed.Options{})
	bin := pcptest.GoCommand(t, ".")
	for _, arg := range []string{"-1", "abc", "3x"} {
		want := p.Run("pmlogger", "-x", arg, "archive")
		ours := exec.Command(bin, "-x", arg, "archive")
		out, _ := ours.CombinedOutput()
		first := func(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }
		if first(string(out)) != first(want.Stderr) || ours.ProcessState.ExitCode() != want.ExitCode {
			t.Errorf("-x %s: ours (exit %d):\n%s\nPCP's (exit %d):\n%s", arg, ours.ProcessState.ExitCode(), out, want.ExitCode, want.Stderr)
		}
	}
}

// TestSessionDevNullAgainstPCP: -x naming standard input (in strtol's
// forms: " 0", "+0", "00") when that is /dev/null is a launcher gone at
// once: PCP's pmlogger and ours log the same dialog failure, end the same
// way, and both leave a complete archive; "0x0" and " 0 " are refused
// alike.
func TestSessionDevNullAgainstPCP(t *testing.T) {
	p := testbed.StartPMCD(t, testbed.Options{})
	bin := pcptest.GoCommand(t, ".")
	run := func(pcp bool, arg string) (log string, code int, base string) {
		dir := t.TempDir()
		cfg := filepath.Join(dir, "config")
		if err := os.WriteFile(cfg, []byte("log mandatory on 50 msec { sample.long.one }\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		base = filepath.Join(dir, "archive")
		logPath := filepath.Join(dir, "log")
		args := []string{"-x", arg, "-h", p.Host(), "-c", cfg, "-l", logPath, base}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd, err := p.Command(ctx, "pmlogger", args...)
		if err != nil {
			t.Skip(err)
		}
		if !pcp {
			cmd.Path, cmd.Args[0] = bin, bin
		}
		cmd.Env = append(cmd.Env, "PMLOGGER_PORT="+strconv.Itoa(freePortBase(t)))
		devNull, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		defer devNull.Close()
		cmd.Stdin = devNull
		out, _ := cmd.CombinedOutput()
		b, _ := os.ReadFile(logPath)
		return maskSession(string(b)) + string(out), cmd.ProcessState.ExitCode(), base
	}
	for _, arg := range []string{" 0", "0", "+0", "00", " 0 ", "0x0"} {
		wantLog, wantCode, _ := run(true, arg)
		gotLog, gotCode, base := run(false, arg)
		if gotLog != wantLog || gotCode != wantCode {
			t.Errorf("-x %q: ours (exit %d):\n%s\nPCP's (exit %d):\n%s", arg, gotCode, gotLog, wantCode, wantLog)
		}
		if gotCode == 0 {
			if res := p.Run("pmlogcheck", base); res.Err != nil || res.Stdout != "" || res.Stderr != "" {
				t.Errorf("-x %q: PCP's pmlogcheck: %v\n%s%s", arg, res.Err, res.Stdout, res.Stderr)
			}
		}
	}
}
