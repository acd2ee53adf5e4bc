package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestTimeoutWarningsLikePCP: a PMCD_CONNECT_TIMEOUT or
// PMCD_REQUEST_TIMEOUT that libpcp ignores gets its warning from ours as
// from PCP's pminfo, in pmNotifyErr's form, once, before the output (ours
// printed nothing); values libpcp takes get none.
func TestTimeoutWarningsLikePCP(t *testing.T) {
	theirs, ours := pcptest.NeedTool(t, "pminfo"), pcptest.GoCommand(t, ".")
	bed := testbed.StartPMCD(t, testbed.Options{})
	host := "localhost:" + strconv.Itoa(bed.Port())
	stamp := regexp.MustCompile(`(?m)^\[[^]]{19}\] pminfo\(\d+\) `)
	for _, env := range [][]string{
		{"PMCD_REQUEST_TIMEOUT=abc", "PMCD_CONNECT_TIMEOUT=xyz"},
		{"PMCD_REQUEST_TIMEOUT=abc"},
		{"PMCD_CONNECT_TIMEOUT=0x1_0p0"},
		{"PMCD_REQUEST_TIMEOUT=5", "PMCD_CONNECT_TIMEOUT=0x10"},
		{"PMCD_REQUEST_TIMEOUT= 5", "PMCD_CONNECT_TIMEOUT="},
		{"PMCD_REQUEST_TIMEOUT=-1"},
		{"PMCD_CONNECT_TIMEOUT=5s"},
	} {
		run := func(bin string) string {
			cmd := exec.Command(bin, "-h", host, "-f", "pmcd.control.timeout")
			cmd.Env = append(os.Environ(), env...)
			out, errOut, code := clitest.RunCmd(t, cmd)
			return stamp.ReplaceAllString("exit "+strconv.Itoa(code)+"\n"+string(out)+"stderr:\n"+string(errOut), "[D] pminfo(P) ")
		}
		if want, got := run(theirs), run(ours); got != want {
			t.Errorf("%s pminfo -f:\nPCP's:\n%s\nours:\n%s", strings.Join(env, " "), want, got)
		}
	}
}
