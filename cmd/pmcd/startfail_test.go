package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestStartFailureLogLikePCP: agents that do not come up are reported in
// PCP's words: a program that cannot be run ("error starting", then the
// pipe's end-of-file), one that exits at once (end-of-file at the
// initial exchange), one that writes something else than a CREDS PDU
// (its PDU type), one that writes garbage; both daemons serve the rest.
func TestStartFailureLogLikePCP(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	write := func(name, text string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pmns := func(name string, domain string) string {
		return write(name+".pmns", "root {\n\t"+name+"\n}\n"+name+" {\n\tx\t"+domain+":0:0\n}\n", 0o644)
	}
	// An ERROR PDU (type 0x7000) where a CREDS PDU belongs.
	wrong := write("pmdawrong", "#!/bin/sh\nprintf '\\000\\000\\000\\020\\000\\000\\160\\000\\000\\000\\000\\000\\377\\377\\377\\377'\nsleep 5\n", 0o755)
	agents := []testbed.Agent{testbed.PMCDAgent(), testbed.SampleAgent(),
		testbed.PipeAgent("gone", 200, pmns("gone", "200"), write("pmdagone", "#!/nonexistent/interpreter\n", 0o755)).Failing(),
		testbed.PipeAgent("quits", 201, pmns("quits", "201"), "/bin/false").Failing(),
		testbed.PipeAgent("wrong", 202, pmns("wrong", "202"), wrong).Failing(),
	}
	lines := func(p *testbed.PMCD) string {
		s := waitLog(t, p, "pmcd request port(s)")
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "pmcd: ") && !strings.HasPrefix(l, "pmcd: PID") || strings.Contains(l, "cannot start") {
				keep = append(keep, strings.ReplaceAll(l, dir, "DIR"))
			}
		}
		return strings.Join(keep, "\n") + "\n"
	}
	want := lines(testbed.StartPMCD(t, testbed.Options{Agents: agents}))
	got := lines(testbed.StartGoPMCD(t, testbed.Options{Agents: agents}))
	if strings.Count(want, "\n") < 4 {
		t.Errorf("PCP's log has too few start failures:\n%s", want)
	}
	if got != want {
		t.Errorf("start failures differ\n%s", clitest.Diff(want, got))
	}
	t.Logf("PCP's:\n%s", want)
}
