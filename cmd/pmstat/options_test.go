package main

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// TestOptionMixesAgainstPCP runs pmstat and PCP's on option mixes over a
// QA archive: the time window's forms (-S, -T, -O, -A, bad ones), -Z and
// -z each way, options without their argument, bad numbers, -a with -L,
// and its own -l, -x and -P.
func TestOptionMixesAgainstPCP(t *testing.T) {
	pmstat := pcptest.NeedTool(t, "pmstat")
	a := clitest.QAArchive(t, "pcp-vmstat")
	compared, hung := 0, 0
	defer func() {
		t.Logf("%d command lines compared with PCP's pmstat; %d where PCP's never ends", compared, hung)
	}()
	for _, args := range [][]string{
		{"-a", a, "-s", "2"},
		{"-a", a, "-S", "+10", "-s", "2"},
		{"-a", a, "-S", "-10", "-s", "2"},
		{"-a", a, "-S", "@junk"},
		{"-a", a, "-T", "+30", "-t", "5"},
		{"-a", a, "-T", "-30", "-t", "5"},
		{"-a", a, "-T", "junk"},
		{"-a", a, "-O", "+20", "-s", "2"},
		{"-a", a, "-O", "-20", "-s", "2"},
		{"-a", a, "-O", "@junk"},
		{"-a", a, "-A", "1m", "-s", "2"},
		{"-a", a, "-A", "junk"},
		{"-a", a, "-A", "1m", "-O", "+20", "-s", "2"},
		{"-a", a, "-S", "+40", "-T", "+10"},
		{"-a", a, "-Z", "UTC", "-s", "2"},
		{"-a", a, "-z", "-s", "2"},
		{"-a", a, "-z", "-Z", "UTC"},
		{"-a", a, "-Z", "no/such/zone", "-s", "1"},
		{"-a", a, "-t", "0", "-s", "2"},
		{"-a", a, "-t", "-1", "-s", "2"},
		{"-a", a, "-t", "2 minutes", "-s", "2"},
		// -t kept as a timeval: under half a microsecond (in long
		// double's rounding: 5e-7 too) is none, and 5 seconds stand
		{"-a", a, "-t", "1e-7", "-s", "2"},
		{"-a", a, "-t", "5e-7", "-s", "2"},
		{"-a", a, "-t", "5.000001e-7", "-s", "2"},
		{"-a", a, "-t", "2.0000004", "-s", "2"},
		{"-a", a, "-s", "0"},
		{"-a", a, "-s", "-1"},
		{"-a", a, "-s", "2x"},
		{"-a", a, "-l", "-s", "2"},
		{"-a", a, "-x", "-s", "2"},
		{"-a", a, "-x", "-l", "-s", "2"},
		{"-a", a, "-P", "-s", "1", "-t", "0.001"},
		{"-a", a, "-K", "clear", "-s", "1"},
		{"-a", a, "-n", "/nonexistent", "-s", "1"},
		{"-a", a, "--derived=/nonexistent", "-s", "1"},
		{"-a"},
		{"-t"},
		{"-s"},
		{"-S"},
		{"-Z"},
		{"-a", a, "--samples=2", "--interval=10"},
		{"-a", a, "--align"},
		{"-a", a, "-D", "nosuchflag", "-s", "1"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			for _, kv := range clitest.ArchiveEnv {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, pmstat, args...)
			wout, werr, wcode := clitest.RunCmd(t, cmd)
			var gout, gerr bytes.Buffer
			done := make(chan int, 1)
			go func() {
				done <- run(context.Background(), append([]string{"pmstat"}, args...), &gout, &gerr, func(time.Duration) {})
			}()
			var gcode int
			select {
			case gcode = <-done:
			case <-time.After(time.Minute):
				t.Fatalf("ours still running after a minute")
			}
			if ctx.Err() != nil {
				// PCP's pmstat repeats a line for ever here; ours writes
				// what it wrote first, and ends
				t.Logf("PCP's pmstat did not end; ours: exit %d\n%s%s", gcode, gout.String(), gerr.String())
				// (a header's time is now where there is no data: ours ran
				// after PCP's was stopped)
				w, g := clitest.Times(string(wout)), clitest.Times(gout.String())
				if !strings.HasPrefix(w, g) || gcode != 1 {
					t.Errorf("ours is not the start of PCP's, or not exit 1:\n%s", clitest.Diff(w[:min(len(w), len(g))], g))
				}
				hung++
				return
			}
			if wcode != gcode || string(wout) != gout.String() || string(werr) != gerr.String() {
				t.Errorf("PCP: exit %d\n%s%s\ngopcp: exit %d\n%s%s\n%s", wcode, wout, werr, gcode, gout.String(), gerr.String(),
					clitest.Diff(string(wout)+string(werr), gout.String()+gerr.String()))
			}
			compared++
		})
	}
}
