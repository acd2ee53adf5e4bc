package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pdu"
)

// TestSlowFirstPDULikePCP: an agent whose CREDS PDU comes 12 seconds
// after it starts is taken by both daemons, which wait for it as long as
// -q says (the bed's 60 s), not their wait for one answer: ours gave up
// after 10 s, its PDU reader's own bound. Only the outcome is compared:
// no failure at the initial exchange in either log.
func TestSlowFirstPDULikePCP(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	var esc strings.Builder
	for _, b := range pdu.VersionCreds(0).Append(nil, 1) {
		fmt.Fprintf(&esc, "\\%03o", b)
	}
	// The agent answers nothing after its CREDS: it stays until pmcd
	// closes its input.
	agent := filepath.Join(dir, "pmdaslow")
	if err := os.WriteFile(agent, []byte("#!/bin/sh\nsleep 12\nprintf '"+esc.String()+"'\nread x\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	pmns := filepath.Join(dir, "slow.pmns")
	if err := os.WriteFile(pmns, []byte("root {\n\tslow\n}\nslow {\n\tx\t204:0:0\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	agents := []testbed.Agent{testbed.PMCDAgent(), testbed.PipeAgent("slow", 204, pmns, agent)}
	lines := func(p *testbed.PMCD) string {
		s := waitLog(t, p, "pmcd request port(s)")
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, "initial") || strings.Contains(l, "cannot start") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	want := lines(testbed.StartPMCD(t, testbed.Options{Agents: agents}))
	got := lines(testbed.StartGoPMCD(t, testbed.Options{Agents: agents}))
	if got != want || want != "" {
		t.Errorf("failures at the initial exchange differ\n%s", clitest.Diff(want, got))
	}
}
