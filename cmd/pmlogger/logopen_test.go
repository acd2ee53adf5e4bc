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
	stamps := regexp.MustCompile(`(?m)([A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d( \d{4})?|pmlogger\(\d+\))`)
	mask := func(s string) string { return stamps.ReplaceAllString(s, "STAMP") }
	run := func(bin string, args []string) (stderr, log string, code int) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "empty.pmns"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, append(append([]string{"-h", host}, args...), "archive")...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PCP_DERIVED_CONFIG=")
		cmd.Stdin = strings.NewReader("log mandatory on 1 sec { sample.long.one }\n")
		_, errb, code := clitest.RunCmd(t, cmd)
		b, _ := os.ReadFile(filepath.Join(dir, "pmlogger.log"))
		return mask(strings.ReplaceAll(string(errb), dir, "DIR")), mask(strings.ReplaceAll(string(b), dir, "DIR")), code
	}
	for _, args := range cases {
		wantErr, wantLog, wantCode := run(theirs, args)
		gotErr, gotLog, gotCode := run(ours, args)
		if gotErr != wantErr || gotLog != wantLog || gotCode != wantCode {
			t.Errorf("pmlogger %s:\nPCP: exit %d, stderr:\n%s\nlog:\n%s\nours: exit %d, stderr:\n%s\nlog:\n%s",
				strings.Join(args, " "), wantCode, wantErr, wantLog, gotCode, gotErr, gotLog)
		}
	}
}
