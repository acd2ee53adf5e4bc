package main

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"

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
			cmd := exec.Command(bin, args...)
			var wantOut, wantErr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &wantOut, &wantErr
			wantCode := 0
			if err := cmd.Run(); err != nil {
				var ee *exec.ExitError
				if !errors.As(err, &ee) {
					t.Fatal(err)
				}
				wantCode = ee.ExitCode()
			}
			var out, errOut bytes.Buffer
			code := run(context.Background(), append([]string{"pmseries"}, args...), &out, &errOut)
			if code != wantCode || out.String() != wantOut.String() || errOut.String() != wantErr.String() {
				t.Errorf("pmseries %s: exit %d, stdout:\n%s\nstderr:\n%s\nPCP's: exit %d, stdout:\n%s\nstderr:\n%s",
					name, code, out.String(), errOut.String(), wantCode, wantOut.String(), wantErr.String())
			}
		})
	}
}
