package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestOptionsLikePCP runs PCP's pmdatrace and ours on command lines their
// options refuse, in an environment of one string, FOO=bar, and finds the
// same standard error and status: PCP's messages where pmdatrace prints
// its own (-A, -N, -T, -U, -V), none where libpcp's would go through
// pmprintf's buffer, never flushed (unknown options, missing arguments,
// -d, -D), then its usage message. "allow:HOST" without a colon reads
// its limit from the string after it, as PCP's does past the end of the
// argument: the next argument, or the first environment string.
func TestOptionsLikePCP(t *testing.T) {
	in := testbed.Need(t)
	theirs := filepath.Join(in.Var("PCP_PMDAS_DIR"), "trace", "pmdatrace")
	ours := pcptest.GoCommand(t, ".")
	log := filepath.Join(t.TempDir(), "trace.log")
	stamp := regexp.MustCompile(`\[[^]]{19}\] pmdatrace\(\d+\)`)
	for _, args := range [][]string{
		{"-Z"}, {"-?"}, {"--help"}, {"-l"}, {"-d", "x"}, {"-D", "nosuch"},
		{"-N", "0"}, {"-N", "3x"}, {"-N", "2", "-U", "1,2", "-V", "x"},
		{"-T", "x"}, {"-T", "1x"}, {"-T", "1 hour", "-T", ""},
		{"-U", "1,2"}, {"-U", "a,2"}, {"-V", "1,2,3,4,5,x"}, {"-U", ",,1,,2,3,4,5,z"},
		{"-A", "allow:h:x"}, {"-A", "disallow:"}, {"-A", "allow:"}, {"-A", "foo"},
		{"-A", "allow:h", "-l", log}, {"-Aallow:h", "-l", log}, {"-A", "allow: h", "--", "x"},
		{"-l", log, "-A", "allow:h"}, {"-A", "allow:localhost:1", "-A", "allow:localhost"},
	} {
		run := func(bin string) string {
			cmd := exec.Command(bin, args...)
			cmd.Args[0] = "pmdatrace"
			cmd.Env = []string{"FOO=bar"}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			return "exit " + strconv.Itoa(code) + "\n" + stamp.ReplaceAllString(stderr.String(), "[STAMP] pmdatrace(PID)")
		}
		if want, got := run(theirs), run(ours); got != want {
			t.Errorf("pmdatrace %q:\nPCP's: %s\nours:  %s", args, want, got)
		}
	}
}
