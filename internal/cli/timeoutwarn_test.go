package cli

import (
	"net"
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

// TestTimeoutWarningsWhenLikePCP runs PCP's pminfo, pmval and pmprobe and
// ours with a PMCD_CONNECT_TIMEOUT and a PMCD_REQUEST_TIMEOUT libpcp
// ignores, against a pmcd that is up, a port that refuses, a Unix socket
// that is not there, a name that does not resolve and a pmcd that accepts
// and never greets: libpcp warns of the connect timeout only once it
// connects to something, and of the request timeout only once a
// context's handshake is done (ours warned of both before connecting).
// The silent pmcd costs each program its 10 s wait for the greeting,
// whatever the machine's load.
func TestTimeoutWarningsWhenLikePCP(t *testing.T) {
	tools := map[string][2]string{}
	for _, tool := range []string{"pminfo", "pmval", "pmprobe"} {
		tools[tool] = [2]string{pcptest.NeedTool(t, tool), pcptest.GoCommand(t, "../../cmd/"+tool)}
	}
	bed := testbed.StartPMCD(t, testbed.Options{})
	stall := clitest.NewStall(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := ln.Addr().String()
	ln.Close()
	hosts := map[string]string{
		"up":        "localhost:" + strconv.Itoa(bed.Port()),
		"refused":   refused,
		"no socket": "unix:" + filepath.Join(t.TempDir(), "pmcd.socket"),
		"no name":   "nosuch.invalid",
		"no proxy":  refused + "@nosuch.invalid",
		"silent":    stall.Host,
	}
	args := map[string][]string{
		"pminfo":  {"-f", "pmcd.control.timeout"},
		"pmval":   {"-s", "1", "pmcd.control.timeout"},
		"pmprobe": {"-v", "pmcd.control.timeout"},
	}
	stamp := regexp.MustCompile(`(?m)^\[[^]]{19}\] (pm[a-z]+)\(\d+\) `)
	for hostName, host := range hosts {
		for tool, bins := range tools {
			t.Run(hostName+"/"+tool, func(t *testing.T) {
				t.Parallel()
				run := func(bin string) string {
					cmd := exec.Command(bin, append([]string{"-h", host}, args[tool]...)...)
					cmd.Env = append(os.Environ(), "PMCD_CONNECT_TIMEOUT=x", "PMCD_REQUEST_TIMEOUT=y")
					// stdout left out: pmval's has the time of its fetch
					_, errOut, code := clitest.RunCmd(t, cmd)
					return stamp.ReplaceAllString("exit "+strconv.Itoa(code)+"\nstderr:\n"+string(errOut), "[D] $1(P) ")
				}
				done := make(chan string)
				go func() { done <- run(bins[0]) }()
				got := run(bins[1])
				want := <-done
				if (hostName == "no name" || hostName == "no proxy") && !strings.Contains(want, "No route to host") {
					t.Skipf("this host's resolver does not say a .invalid name is unknown: %q", want)
				}
				if got != want {
					t.Errorf("%s -h %s:\nPCP's:\n%s\nours:\n%s", tool, host, want, got)
				}
			})
		}
	}
}
