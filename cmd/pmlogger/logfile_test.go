package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestLogFileBeside: pmlogger starts its -l log as PCP's pmOpenLog does,
// the old one moved aside to .prev rather than truncated; and a log
// another live process writes (another logger given the same -l) is left
// as it was, the messages going to standard error. No pmcd answers here:
// the failure to connect is the message logged.
func TestLogFileBeside(t *testing.T) {
	bin := pcptest.GoCommand(t, ".")
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	for _, held := range []bool{false, true} {
		dir := t.TempDir()
		logPath := filepath.Join(dir, "pmlogger.log")
		if err := os.WriteFile(logPath, []byte("the old log\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if held {
			pcptest.HoldOpen(t, logPath, false)
		}
		cmd := exec.Command(bin, "-h", "localhost:"+strconv.Itoa(port), "-l", logPath, filepath.Join(dir, "archive"))
		cmd.Stdin = strings.NewReader("log mandatory on 1 sec { sample.long.one }\n")
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Errorf("held %v: exit %v, want status 1\n%s", held, err, out)
		}
		logText, _ := os.ReadFile(logPath)
		prev, perr := os.ReadFile(logPath + ".prev")
		if held {
			if string(logText) != "the old log\n" || !errors.Is(perr, os.ErrNotExist) {
				t.Errorf("held log changed: %q, .prev %q %v", logText, prev, perr)
			}
			if !strings.Contains(string(out), "holds it open") || !strings.Contains(string(out), "Cannot connect to PMCD") {
				t.Errorf("standard error:\n%s", out)
			}
			continue
		}
		if string(prev) != "the old log\n" || !strings.HasPrefix(string(logText), "Log for pmlogger on ") || !strings.Contains(string(logText), "Cannot connect to PMCD") {
			t.Errorf("log %q, .prev %q", logText, prev)
		}
	}
}
