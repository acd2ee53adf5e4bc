package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestLogOpenAgainstPCP runs PCP's pmlogger and ours where the log
// cannot be made (a missing directory, a directory in its place), is
// standard error itself (-l -), or where -n names a namespace libpcp
// refuses: the standard error, the log and the exit status are the same
// (times and process ids aside). No pmcd answers on the port: the
// failure to connect is the last message either logs.
func TestLogOpenAgainstPCP(t *testing.T) {
	theirs := pcptest.NeedTool(t, "pmlogger")
	ours := pcptest.GoCommand(t, ".")
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	host := "localhost:" + strconv.Itoa(port)
	cases := [][]string{
		{"-l", "nodir/x"},
		{"-l", "adir"},
		{"-l", "-"},
		{"-n", "nosuch"},
		{"-n", "empty.pmns"},
		{"-n", "adir"},
		{"-n", "nosuch", "-l", "-"},
		{"-n", "nosuch", "-n", "empty.pmns"},
	}
	// Private run, tmp and log directories: what a pmlogger registers
	// (PCP_TMP_DIR/pmlogger) or logs goes there, never to the system's.
	priv := t.TempDir()
	var env []string
	for _, v := range []string{"PCP_RUN_DIR", "PCP_TMP_DIR", "PCP_LOG_DIR"} {
		d := filepath.Join(priv, strings.ToLower(v))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		env = append(env, v+"="+d)
	}
	for _, args := range cases {
		compareRun(t, theirs, ours, env, append(append([]string{"-h", host}, args...), "archive"))
	}
}

var runStamps = regexp.MustCompile(`(?m)([A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d( \d{4})?|pmlogger\(\d+\))`)

// compareRun runs PCP's pmlogger and ours with args in
// fresh directories (holding "adir", a directory, and "empty.pmns", an
// empty file), the configuration on standard input, and compares the
// standard error, pmlogger.log and the exit status, times and process
// ids masked.
func compareRun(t *testing.T, theirs, ours string, env, args []string) {
	t.Helper()
	run := func(bin string) (stderr, log string, code int) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "empty.pmns"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		// a logger that gets as far as its control port binds a
		// private one, not PCP's 4330
		cmd.Env = append(append(os.Environ(), env...), "PCP_DERIVED_CONFIG=", "PMLOGGER_PORT="+strconv.Itoa(freePortBase(t)))
		cmd.Stdin = strings.NewReader("log mandatory on 1 sec { sample.long.one }\n")
		_, errb, code := clitest.RunCmd(t, cmd)
		b, _ := os.ReadFile(filepath.Join(dir, "pmlogger.log"))
		mask := func(s string) string { return runStamps.ReplaceAllString(strings.ReplaceAll(s, dir, "DIR"), "STAMP") }
		return mask(string(errb)), mask(string(b)) + filesLeft(t, dir), code
	}
	wantErr, wantLog, wantCode := run(theirs)
	gotErr, gotLog, gotCode := run(ours)
	if gotErr != wantErr || gotLog != wantLog || gotCode != wantCode {
		t.Errorf("pmlogger %s:\nPCP: exit %d, stderr:\n%s\nlog and files:\n%s\nours: exit %d, stderr:\n%s\nlog and files:\n%s",
			strings.Join(args, " "), wantCode, wantErr, wantLog, gotCode, gotErr, gotLog)
	}
}

// filesLeft lists what a run left in dir besides the log and what
// compareRun put there: each file's name and whether it is empty (the
// sizes of archives written differ with the time and the values).
func filesLeft(t *testing.T, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("files:\n")
	for _, e := range ents {
		switch e.Name() {
		case "adir", "empty.pmns", "pmlogger.log":
			continue
		}
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		state := "empty"
		if fi.Size() > 0 {
			state = "written"
		}
		b.WriteString(e.Name() + " " + state + "\n")
	}
	return b.String()
}

// TestRunAgainstPCP compares the two, each logging from the same pmcd,
// on command lines that end early: -T ends that are already due (libpcp
// compares times by a difference cut to an int, so one 2^31 seconds
// away or more is due at once), a -T that does not parse (reported
// after the archive's three files are made, and left empty), -t refused with libpcp's caret, an
// archive that cannot be made, and an -x descriptor that is not open.
func TestRunAgainstPCP(t *testing.T) {
	t.Parallel()
	theirs := pcptest.NeedTool(t, "pmlogger")
	ours := pcptest.GoCommand(t, ".")
	p := testbed.StartPMCD(t, testbed.Options{})
	for _, args := range [][]string{
		{"-T", "-1sec"},
		{"-T", "+30000days"},
		{"-T", "-4000000days"},
		{"-T", "@ bogus"},
		{"-T", "x"},
		{"-t", "x"},
		{"-t", "5 sec x"},
		{"-t", ""},
		{"-s", "1", "-c", "adir"},
		{"-s", "1", "-x", "9"},
		{"-s", "1", "nodir/a"},
		{"-s", "1", "adir/a/b"},
		// -T given empty is given: the run ends at once.
		{"-T", ""},
		// pmlogger's own -D refusal, and its numbers read as C's
		// (int)strtol reads them: white space and a sign taken, a
		// number too big for an int cut to its low 32 bits.
		{"-s", "1", "-D", "bogus"},
		{"-s", "1", "-p", "99999999999"},
		{"-s", "1", "-p", "4294967297"},
		{"-s", "1", "-p", "x1"},
		{"-s", "1", "-I", " 2"},
		{"-s", "1", "-I", "2x"},
		{"-s", "1", "-V", " 3"},
		{"-s", "1", "-V", "3x"},
		{"-s", "1", "-x", "3x"},
		{"-s", "1", "-x", "-1"},
	} {
		if !strings.Contains(args[len(args)-1], "/") {
			args = append(args, "archive")
		}
		compareRun(t, theirs, ours, p.Env(), append([]string{"-h", p.Host()}, args...))
	}
}
