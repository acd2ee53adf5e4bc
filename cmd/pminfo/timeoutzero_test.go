package main

import (
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestZeroTimeoutsLikePCP: PMCD_REQUEST_TIMEOUT values that round to no
// microseconds are libpcp's zero wait, under which a namespace traversal
// (pminfo -f, pmprobe -v) times out while the requests that wait whole
// seconds (pmval's lookup and fetch) wait without limit; a tiny wait that
// is not zero does the same, as does one under a second for requests.
// PMCD_CONNECT_TIMEOUT's zero is no limit. Each of PCP's programs and
// ours run with the same setting against one private pmcd and must agree
// on stdout, stderr and the exit status.
func TestZeroTimeoutsLikePCP(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	host := "localhost:" + strconv.Itoa(bed.Port())
	tools := []struct {
		name, pkg string
		args      []string
	}{
		{"pminfo", ".", []string{"-f", "sample.long.one"}},
		{"pmval", "../pmval", []string{"-s", "1", "sample.long.one"}},
		{"pmprobe", "../pmprobe", []string{"-v", "sample.long.one"}},
		// after a traversal's timeout the connection stays and the next
		// traversal times out too, whether it did not wait at all or its
		// tiny wait ran out (libpcp looks at the clock after the reply
		// is there, so a wait shorter than that look always runs out)
		{"pmprobe", "../pmprobe", []string{"-v", "sample.long.one", "sample.long.ten", "sample.long.hundred"}},
		{"pminfo", ".", []string{"-f", "sample.long.one", "sample.long.ten"}},
	}
	settings := []string{
		"PMCD_REQUEST_TIMEOUT=0",
		"PMCD_REQUEST_TIMEOUT=1e-7",
		"PMCD_REQUEST_TIMEOUT=0.0000001",
		"PMCD_REQUEST_TIMEOUT=-0",
		"PMCD_REQUEST_TIMEOUT=",
		"PMCD_REQUEST_TIMEOUT=0.0000004",
		"PMCD_REQUEST_TIMEOUT=0.000001", // too short for any reply, not zero
		"PMCD_REQUEST_TIMEOUT=0.9",
		"PMCD_REQUEST_TIMEOUT=2",
		"PMCD_CONNECT_TIMEOUT=0",
		"PMCD_CONNECT_TIMEOUT=1e-7",
		"PMCD_CONNECT_TIMEOUT=-0",
	}
	for _, tool := range tools {
		for _, env := range settings {
			sameAsPCP(t, tool.name, tool.pkg, append([]string{"-h", host}, tool.args...), env)
		}
	}
}

// sameAsPCP runs PCP's tool and ours (built from pkg) with args and the
// environment setting env, failing t unless stdout, stderr and the exit
// status agree.
func sameAsPCP(t *testing.T, tool, pkg string, args []string, env string) {
	t.Helper()
	theirs, ours := pcptest.NeedTool(t, tool), pcptest.GoCommand(t, pkg)
	run := func(bin string) string {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), env)
		out, errOut, code := clitest.RunCmd(t, cmd)
		return "exit " + strconv.Itoa(code) + "\n" + string(out) + "stderr:\n" + string(errOut)
	}
	if want, got := run(theirs), run(ours); got != want {
		t.Errorf("%s %s %v:\nPCP's:\n%s\nours:\n%s", env, tool, args, want, got)
	}
}
