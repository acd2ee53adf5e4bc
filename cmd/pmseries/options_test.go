package main

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestOptionsAgainstPCP compares what pmseries says of its command line
// with PCP's pmseries: usage, version, refused and conflicting options,
// each before any connection to Redis is tried, so both exit without one.
func TestOptionsAgainstPCP(t *testing.T) {
	bin := pcptest.NeedTool(t, "pmseries")
	for _, args := range [][]string{
		{"-?"}, {"--help"}, {"--hel"}, {"-V"}, {"-Vx"}, {"--conf=/nonexistent", "-V"},
		{"-x"}, {"--nonsense=1"}, {"-p"}, {"-Z"}, {"-h"}, {"--config"},
		{"-D", "badflag", "q"}, {"-L", "-a", "x"}, {"-L", "-q", "x"}, {"-L", "-w", "1h", "x"},
	} {
		name := strings.Join(args, " ")
		t.Run(name, func(t *testing.T) {
			wantOut, wantErr, wantCode := clitest.RunCmd(t, exec.Command(bin, args...))
			var out, errOut bytes.Buffer
			code := run(context.Background(), append([]string{"pmseries"}, args...), &out, &errOut)
			if code != wantCode || out.String() != string(wantOut) || errOut.String() != string(wantErr) {
				t.Errorf("pmseries %s: exit %d, stdout:\n%s\nstderr:\n%s\nPCP's: exit %d, stdout:\n%s\nstderr:\n%s",
					name, code, out.String(), errOut.String(), wantCode, string(wantOut), string(wantErr))
			}
		})
	}
}
