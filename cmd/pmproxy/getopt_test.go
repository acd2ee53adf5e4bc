package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// buildPMProxy builds this command for tests that need it as a process.
func buildPMProxy(t *testing.T) string { return pcptest.GoCommand(t, ".") }

// pmproxyPair is PCP's pmproxy (the test skipped without it) and ours
// built, for the tests that run both as processes.
func pmproxyPair(t *testing.T) (theirs, ours string) {
	t.Helper()
	theirs, err := testbed.Need(t).Tool("pmproxy")
	if err != nil {
		t.Skip(err)
	}
	return theirs, buildPMProxy(t)
}

// stamp is the time and process of a line pmNotifyErr writes.
var stamp = regexp.MustCompile(`\[[^\]]*\] pmproxy\(\d+\)`)

// TestCommandLineLikePCP runs PCP's pmproxy and ours on command lines
// that stop at the options (never binding a port or writing a log):
// usage, unknown and ambiguous options, values getopt reads its own way
// (an argument joined to a short option keeps its "=", long options by a
// unique prefix), -D, and the PCP_* variables pmGetOptions reads for the
// tools, which PCP's pmproxy, built on pmgetopt_r alone, ignores. Every
// line has an operand, which PCP's pmproxy refuses after its options
// (pmproxy not started), so that neither starts whatever the options
// say: a port of 0 or above 65535 (which PCP's takes and ours refuses)
// is left out for that reason. The same status, standard error and -x
// file.
func TestCommandLineLikePCP(t *testing.T) {
	t.Parallel()
	theirs, ours := pmproxyPair(t)
	dir := t.TempDir()
	conf := filepath.Join(dir, "pmproxy.conf")
	if err := os.WriteFile(conf, []byte("[pmproxy]\nhttp.enabled = true\n[redis]\nenabled = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		env  []string
		args []string
	}{
		{nil, []string{"-?"}},
		{nil, []string{"--help"}},
		{nil, []string{"--nosuch"}},
		{nil, []string{"-Z"}},
		{nil, []string{"-L", "0"}},
		{nil, []string{"-L=5"}},
		{nil, []string{"-L0x10", "-p", "x"}},
		{nil, []string{"-p"}},
		{nil, []string{"-r", "0"}},
		{nil, []string{"-T", "x"}},
		{nil, []string{"-T", "5", "-L0"}},
		{nil, []string{"-f", "-F"}},
		{nil, []string{"--fore", "--deprecated", "-L0"}},
		{nil, []string{"--foreground=yes"}},
		{nil, []string{"--redis", "x"}},
		{nil, []string{"--con"}},
		{nil, []string{"-D", "pdu", "-L0"}},
		{nil, []string{"-D=pdu", "-L0"}},
		{nil, []string{"-Dpdu,fetch", "-L0"}},
		{nil, []string{"-D", "nosuch"}},
		{nil, []string{"-D", "nosuch", "-Z"}},
		{nil, []string{"-V"}},
		{[]string{"PCP_HOST=a", "PCP_ARCHIVE=b"}, []string{"-L0"}},
		{[]string{"PCP_START_TIME=x", "PCP_INTERVAL=y"}, []string{"-L0"}},
		{[]string{"PCP_NAMESPACE=/nonexistent/gopcp"}, []string{"-L0"}},
		{[]string{"PCP_DEBUG=nosuch"}, []string{"-L0"}},
	}
	for i, tt := range tests {
		fatal := filepath.Join(dir, "fatal"+strconv.Itoa(i))
		args := append([]string{"-c", conf, "-x", fatal, "stop"}, tt.args...)
		run := func(bin string) string {
			os.Remove(fatal)
			cmd := exec.Command(bin, args...)
			// pmproxy shows its log (default pmproxy.log, relative) in
			// the -x file when it does not start: none here.
			cmd.Dir = dir
			// operands must not end the options
			cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool {
				return strings.HasPrefix(kv, "POSIXLY_CORRECT=")
			}), tt.env...)
			// Should either program get past its options, its run,
			// log and temporary files are the test's own.
			cmd.Env = append(cmd.Env, "PCP_RUN_DIR="+dir, "PCP_TMP_DIR="+dir, "PCP_LOG_DIR="+dir)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			text := stamp.ReplaceAllString(strings.ReplaceAll(out.String(), bin, "pmproxy"), "[TIME] pmproxy(PID)")
			f, _ := os.ReadFile(fatal)
			return text + "-x: " + string(f) + "\nstatus " + strconv.Itoa(code)
		}
		if got, want := run(ours), run(theirs); got != want {
			t.Errorf("%v pmproxy %v:\nours:\n%s\nPCP's:\n%s", tt.env, args, got, want)
		}
	}
}
