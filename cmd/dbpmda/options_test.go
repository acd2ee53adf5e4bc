package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

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
			if gotCode != wantCode || gotOut.String() != string(wantOut) || gotErr.String() != string(wantErr) {
				t.Errorf("PCP's dbpmda: exit %d\n%s%s\nours: exit %d\n%s%s", wantCode, string(wantOut), string(wantErr),
					gotCode, gotOut.String(), gotErr.String())
			}
			if wantCode == 0 && !strings.Contains(string(wantOut), "Debug options:") {
				t.Errorf("PCP's dbpmda did not show its status:\n%s", string(wantOut))
			}
		})
	}
}
