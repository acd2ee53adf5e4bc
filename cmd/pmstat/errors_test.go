package main

import (
	"bytes"
	"context"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestErrorsAgainstPCP compares what PCP's pmstat and ours print and
// return for bad options and sources that cannot be used.
func TestErrorsAgainstPCP(t *testing.T) {
	pmstat := pcptest.NeedTool(t, "pmstat")
	bed := testbed.StartPMCD(t, testbed.Options{}) // pmcd and sample: none of pmstat's metrics
	vmstat := clitest.QAArchive(t, "pcp-vmstat")
	free, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	_, bedPort, _ := strings.Cut(bed.Host(), ":")
	cases := [][]string{
		// Time control: pmtime is not there to run, nothing answers on
		// a port, or what answers is not pmtime (the bed's pmcd).
		{"-p", strconv.Itoa(free), "-a", vmstat},
		{"-p", bedPort, "-a", vmstat},
		{"-p", strconv.Itoa(free), "-a", "/nonexistent/archive"},
	}
	if _, err := exec.LookPath("pmtime"); err != nil {
		cases = append(cases, []string{"-g", "-a", vmstat}, []string{"-g", "-Z", "UTC", "-a", vmstat})
	}
	for _, args := range append(cases, [][]string{
		{"--help"},
		{"-V"},
		{"-q"},
		{"extra"},
		{"-P", "-h", bed.Host()},
		{"-s", "x"},
		{"-t", "nonsense"},
		{"-h", "localhost:" + strconv.Itoa(free), "-s", "1"},
		{"-h", bed.Host(), "-s", "1"},
		{"-h", "localhost:" + strconv.Itoa(free), "-h", bed.Host(), "-s", "1"},
		{"-Z", "UTC", "-z"},
		{"-H", "/nonexistent/hosts"},
		{"-a", "/nonexistent/archive", "-H", "/nonexistent/hosts"},
		{"-a", "/nonexistent/archive", "-h", bed.Host()},
	}...) {
		t.Run(fmtArgs(args), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			wout, werr, wcode := clitest.RunCmd(t, exec.CommandContext(ctx, pmstat, args...))
			var gout, gerr bytes.Buffer
			gcode := run(context.Background(), append([]string{"pmstat"}, args...), &gout, &gerr, func(time.Duration) {})
			if wcode != gcode || string(wout) != gout.String() || string(werr) != gerr.String() {
				t.Errorf("PCP: exit %d\n%s%s\ngopcp: exit %d\n%s%s", wcode, wout, werr, gcode, gout.String(), gerr.String())
			}
		})
	}
}

func fmtArgs(args []string) string {
	var b bytes.Buffer
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a)
	}
	return b.String()
}
