package main

import (
	"context"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

var (
	restartedAt = regexp.MustCompile(`pmcd RESTARTED at .*`)
	clientRowFD = regexp.MustCompile(`(?m)^    +\d+  `)
	// a client row's host: what the machine's resolver names the
	// address, and ours gives up on a slow one after 2 s
	clientHost = regexp.MustCompile(`(?m)^(     FD  )\S+ +`)
	dumpconnAt = regexp.MustCompile(`(->Current PMCD clients at ).*`)
)

// restartBlock sends p SIGHUP and returns its log from "pmcd RESTARTED"
// to the namespace line that ends the block, masked as startLog masks.
func restartBlock(t *testing.T, p *testbed.PMCD, round int) string {
	t.Helper()
	if err := syscall.Kill(p.PID(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	var s string
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		b, _ := os.ReadFile(p.LogPath())
		s = string(b)
		if strings.Count(s, "pmcd RESTARTED") >= round && strings.Count(s, "Info: PMNS file") >= round ||
			time.Now().After(deadline) {
			break
		}
	}
	i := -1
	for n := 0; n < round; n++ {
		k := strings.Index(s[i+1:], "pmcd RESTARTED")
		if k < 0 {
			t.Fatalf("%s: no RESTARTED block %d:\n%s", p.LogPath(), round, s)
		}
		i += 1 + k
	}
	j := strings.Index(s[i:], "Info: PMNS file")
	if j < 0 {
		t.Fatalf("%s: no namespace line after the restart:\n%s", p.LogPath(), s)
	}
	s = s[strings.LastIndex(s[:i], "\n")+1 : i+j+strings.Index(s[i+j:], "\n")+1]
	s = logStampRe.ReplaceAllString(s, "[DATE] pmcd(PID) ")
	s = restartedAt.ReplaceAllString(s, "pmcd RESTARTED at DATE")
	s = clientHost.ReplaceAllString(clientRowFD.ReplaceAllString(s, "     FD  "), "${1}HOST ")
	s = logPID.ReplaceAllString(s, "${1}PID")
	s = logRow.ReplaceAllString(s, "$1 PID IN OUT ")
	s = logTmp.ReplaceAllString(s, "/TMP")
	return logAddr.ReplaceAllString(s, " [0xADDR]")
}

// TestRestartLogLikePCP: on SIGHUP our pmcd writes what PCP's writes:
// "pmcd RESTARTED" with the table of connected clients (one held open
// here; its host's name is masked, as the machine's resolver gives it), the configuration unchanged and no agent to
// restart, the agent table and access lists, the namespace unchanged;
// then with pmcd.conf touched (read again, the same agents kept), and
// with access control denying stores, shown in the client table; and
// what a store into pmcd.control.dumpconn writes. The
// stamps, pids, descriptors and private paths are masked.
func TestRestartLogLikePCP(t *testing.T) {
	run := func(p *testbed.PMCD) []string {
		waitLog(t, p, "pmcd request port(s)")
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		c, err := pmapi.NewHostContext(ctx, p.Host())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		// The start-up probe's client may not have been let go yet:
		// wait until pmcd counts only this one, or the tables differ by
		// a row of a client on its way out.
		onlyUs(ctx, t, c)
		var out []string
		out = append(out, restartBlock(t, p, 1))
		conf, err := os.ReadFile(p.ConfPath())
		if err != nil {
			t.Fatal(err)
		}
		// A later modification time, so that both read it again.
		later := time.Now().Add(2 * time.Second)
		if err := os.WriteFile(p.ConfPath(), conf, 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p.ConfPath(), later, later)
		out = append(out, restartBlock(t, p, 2))
		// pmcd.control.dumpconn writes the client table too.
		if r := p.Run("pmstore", "-h", p.Host(), "pmcd.control.dumpconn", "1"); r.Err != nil {
			t.Fatal(r.Err)
		}
		s := waitLog(t, p, "->Current PMCD clients at")
		s = s[strings.Index(s, "->Current PMCD clients at"):]
		// up to the table's closing blank line
		if k := strings.Index(s, "\n\n"); k >= 0 {
			s = s[:k+2]
		}
		s = dumpconnAt.ReplaceAllString(s, "${1}DATE")
		out = append(out, clientHost.ReplaceAllString(clientRowFD.ReplaceAllString(s, "     FD  "), "${1}HOST "))
		return out
	}
	theirs := testbed.StartPMCD(t, testbed.Options{Access: "disallow \".*\" : store;\nallow \"local:*\" : all;\n"})
	ours := testbed.StartGoPMCD(t, testbed.Options{Access: "disallow \".*\" : store;\nallow \"local:*\" : all;\n"})
	want, got := run(theirs), run(ours)
	for i := range want {
		if !strings.Contains(want[i], "Current PMCD clients") || !strings.Contains(want[i], "FD  HOST ") {
			t.Errorf("PCP's restart %d has no client table:\n%s", i+1, want[i])
		}
		if got[i] != want[i] {
			t.Errorf("restart %d differs\n%s", i+1, clitest.Diff(want[i], got[i]))
		}
	}
	t.Logf("PCP's second block:\n%s\nits dumpconn:\n%s", want[1], want[2])
}

// onlyUs waits until pmcd.numclients, fetched on c, is 1.
func onlyUs(ctx context.Context, t *testing.T, c *pmapi.HostContext) {
	t.Helper()
	id, err := c.LookupName(ctx, "pmcd.numclients")
	if err != nil {
		t.Fatal(err)
	}
	for {
		var r pcp.Result
		if _, err := c.Fetch(ctx, []pcp.PMID{id}, &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Sets) == 1 && r.Sets[0].NumVal == 1 && r.Sets[0].Values[0].LVal == 1 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("pmcd.numclients never came to 1: %+v", r.Sets)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
