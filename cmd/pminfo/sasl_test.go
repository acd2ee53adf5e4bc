package main

import (
	"bytes"
	"context"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestSASLHostSpecLikePCP runs PCP's pminfo and ours with the SASL
// attributes of a host specification (username, password, method) against
// PCP's pmcd demanding authentication (a private SASL configuration):
// the same output, error text and exit status for each mechanism pmcd
// offers, right and wrong passwords, and no credentials. Neither may ask
// on a console (PCP_CONSOLE=none; TestConsolePromptsLikePCP asks).
func TestSASLHostSpecLikePCP(t *testing.T) {
	// no console to ask for what is missing, on either side
	t.Setenv("PCP_CONSOLE", "none")
	s := testbed.NewSASL(t, "plain login scram-sha-256 scram-sha-1 digest-md5 cram-md5", "pw")
	bed := testbed.StartPMCD(t, s.Options())
	host := "localhost:" + strconv.Itoa(bed.Port())
	base := host + "?username=" + url.QueryEscape(s.User)
	specs := []string{host, base + "&password=pw", base + "&password=no"}
	for _, m := range []string{"plain", "login", "scram-sha-256", "scram-sha-1", "digest-md5", "cram-md5"} {
		specs = append(specs, base+"&password=pw&method="+m, base+"&password=no&method="+m)
	}
	for _, spec := range specs {
		args := []string{"-h", spec, "-f", "pmcd.numagents", "pmcd.version"}
		r := runBoth(t, bed, args)
		line := "pminfo " + strings.Join(args, " ")
		if got, want := r.stdout, r.wantOut; got != want {
			t.Errorf("%s: stdout differs\n%s", line, clitest.Diff(want, got))
		}
		// PCP's also has SASL's own notices (a failed prompt, "No
		// worthy mechs found") with time and pid
		if got, want := clitest.DropNotices(r.stderr), clitest.DropNotices(r.wantErr); got != want {
			t.Errorf("%s: stderr differs\n%s", line, clitest.Diff(want, got))
		}
		if r.code != r.wantCode {
			t.Errorf("%s: exit %d, PCP's %d", line, r.code, r.wantCode)
		}
	}
}

// TestSASLAgainstGoPMCD: gopcp's pmcd has no SASL of its own (reading
// Cyrus SASL's Berkeley DB sasldb is out of its scope): it offers the
// mechanisms and refuses whatever is chosen. PCP's pminfo and ours
// meet that refusal alike.
func TestSASLAgainstGoPMCD(t *testing.T) {
	t.Setenv("PCP_CONSOLE", "none")
	bed := testbed.StartGoPMCD(t, testbed.Options{Args: []string{"-S"}, ReadyHost: "unix:"})
	host := bed.Host()
	for _, spec := range []string{host + "?username=u&password=p", host + "?username=u&password=p&method=plain", host + "?username=u&password=p&method=login"} {
		args := []string{"-h", spec, "-f", "pmcd.numagents"}
		r := runBoth(t, bed, args)
		if r.code != r.wantCode {
			t.Errorf("pminfo %s: exit %d, PCP's %d", strings.Join(args, " "), r.code, r.wantCode)
		}
		want := r.wantOut + clitest.DropNotices(r.wantErr)
		if got := r.stdout + clitest.DropNotices(r.stderr); got != want {
			t.Errorf("pminfo %s:\n%s", strings.Join(args, " "), clitest.Diff(want, got))
		}
		t.Logf("%s: %s", spec, want)
	}
}

// bothRuns is what PCP's pminfo (want*) and ours printed and returned.
type bothRuns struct {
	wantOut, wantErr, stdout, stderr string
	wantCode, code                   int
}

// runBoth runs PCP's pminfo with args against bed, in a session of its
// own and with no console (so it cannot ask), then ours in this process.
func runBoth(t *testing.T, bed *testbed.PMCD, args []string) bothRuns {
	t.Helper()
	cmd, err := bed.Command(context.Background(), "pminfo", args...)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(cmd.Env, "PCP_CONSOLE=none")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var r bothRuns
	wantOut, wantErr, wantCode := clitest.RunCmd(t, cmd)
	r.wantCode = wantCode
	var stdout, stderr bytes.Buffer
	r.code = run(context.Background(), append([]string{"pminfo"}, args...), &stdout, &stderr)
	r.wantOut, r.wantErr, r.stdout, r.stderr = string(wantOut), string(wantErr), stdout.String(), stderr.String()
	return r
}
