package main

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// notifyStamp is the time and process id of a pmNotifyErr line.
var notifyStamp = regexp.MustCompile(`(?m)^\[\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d\] (\w+)\(\d+\) `)

// TestOptionsAgainstPCP runs PCP's dbpmda and ours on command lines with
// good and bad -D specifications, other refusals around them, and
// $PCP_DEBUG and other PCP_* variables (which dbpmda's pmgetopt_r does
// not read as options), comparing stdout, stderr and the exit status.
func TestOptionsAgainstPCP(t *testing.T) {
	theirs := pcptest.NeedTool(t, "dbpmda")
	const input = "status\n"
	cases := []struct {
		env  []string
		args []string
	}{
		{nil, []string{"-D", "bogus"}},
		{nil, []string{"-D", "pdu,nosuch"}},
		{nil, []string{"--debug=bogus"}},
		{nil, []string{"-x", "-D", "bogus", "-q", "0"}},
		{nil, []string{"-q", "0", "-D", "bogus"}},
		{nil, []string{"-D", "bogus", "operand"}},
		{nil, []string{"-D", "bogus", "-D", "worse", "-n"}},
		{nil, []string{"-f", "-D", "fetch,PDU,2"}},
		{nil, []string{"-f", "-D", "appl1", "-D", "2048"}},
		{nil, []string{"-f", "-D", ""}},
		{nil, []string{"-f", "-D", "0"}},
		{[]string{"PCP_DEBUG=bad"}, []string{"-f"}},
		{[]string{"PCP_DEBUG=bad"}, []string{"-D", "bogus"}},
		{[]string{"PCP_DEBUG=appl0"}, []string{"-f", "-D", "pdu"}},
		{[]string{"PCP_DEBUG=appl0,2"}, []string{"-f"}},
		// -U switches as it is met: a user that cannot be found ends
		// the run there (only unknown users here: ours runs in this
		// process, which must not change its identity).
		{nil, []string{"-U", "nosuchuser", "-Z"}},
		{nil, []string{"-Z", "-U", "nosuchuser"}},
		{nil, []string{"-D", "bogus", "-U", "nosuchuser", "-f"}},
		{[]string{"PMNS_DEFAULT=nosuch"}, []string{"-f"}},
		{[]string{"PMNS_DEFAULT=/dev/null"}, []string{"-f"}},
		{[]string{"PCP_SAMPLES=bad", "PCP_HOST=nowhere", "PCP_ARCHIVE=nothing", "PCP_START_TIME=x"}, []string{"-f"}},
	}
	for _, tc := range cases {
		name := strings.Join(append(append([]string{}, tc.env...), tc.args...), " ")
		t.Run(name, func(t *testing.T) {
			env := []string{"PCP_STDERR="}
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "PCP_") || strings.HasPrefix(kv, "PCP_CONF=") || strings.HasPrefix(kv, "PCP_DIR=") {
					env = append(env, kv)
				}
			}
			env = append(env, tc.env...)
			cmd := exec.Command(theirs, tc.args...)
			cmd.Env = env
			cmd.Stdin = strings.NewReader(input)
			wantOut, wantErr, wantCode := clitest.RunCmd(t, cmd)
			for _, kv := range os.Environ() {
				if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "PCP_") && k != "PCP_CONF" && k != "PCP_DIR" {
					t.Setenv(k, "")
					os.Unsetenv(k)
				}
			}
			for _, kv := range tc.env {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			var gotOut, gotErr bytes.Buffer
			gotCode := run(append([]string{"dbpmda"}, tc.args...), strings.NewReader(input), &gotOut, &gotErr)
			we := notifyStamp.ReplaceAllString(string(wantErr), "[TIME] $1(PID) ")
			ge := notifyStamp.ReplaceAllString(gotErr.String(), "[TIME] $1(PID) ")
			if gotCode != wantCode || gotOut.String() != string(wantOut) || ge != we {
				t.Errorf("PCP's dbpmda: exit %d\n%s%s\nours: exit %d\n%s%s", wantCode, string(wantOut), we,
					gotCode, gotOut.String(), ge)
			}
			if wantCode == 0 && !strings.Contains(string(wantOut), "Debug options:") {
				t.Errorf("PCP's dbpmda did not show its status:\n%s", string(wantOut))
			}
		})
	}
}

// TestNullInputAgainstPCP runs PCP's dbpmda and ours with standard input
// on /dev/null: a character device but not a terminal, so no prompt
// unless -i asks for one (ours prompted, reading the device's mode).
func TestNullInputAgainstPCP(t *testing.T) {
	theirs := pcptest.NeedTool(t, "dbpmda")
	for _, args := range [][]string{{"-f"}, {"-f", "-e"}, {"-f", "-i"}, {"-f", "-D", "appl0"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			null := func() *os.File {
				f, err := os.Open(os.DevNull)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { f.Close() })
				return f
			}
			cmd := exec.Command(theirs, args...)
			cmd.Stdin = null()
			wantOut, wantErr, wantCode := clitest.RunCmd(t, cmd)
			var gotOut, gotErr bytes.Buffer
			gotCode := run(append([]string{"dbpmda"}, args...), null(), &gotOut, &gotErr)
			if gotCode != wantCode || gotOut.String() != string(wantOut) || gotErr.String() != string(wantErr) {
				t.Errorf("PCP's dbpmda: exit %d\n%q %q\nours: exit %d\n%q %q", wantCode, wantOut, wantErr,
					gotCode, gotOut.String(), gotErr.String())
			}
		})
	}
}
