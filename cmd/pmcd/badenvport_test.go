package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestBadEnvPortRefused: a PMCD_PORT with an element that does not read
// leaves PCP's pmcd no port at all, so it does not start (with a -p, it
// fails growing its port list); it must never fall back to 44321. Ours
// is run beside PCP's in a private network namespace, so that a fault
// binds no port of the host's; where none can be made, only the parse.
// PMCD_CREDS_TIMEOUT is left alone by both: PCP 6.0.3's pmcd does not
// read it (later PCP warns of a bad one before it stops here), so none
// of its values changes what is said.
func TestBadEnvPortRefused(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"xyz", "31780,xyz", "31780,", "-1", "0x"} {
		if _, ok := envPorts(v); ok != (v == "31780,") {
			t.Errorf("envPorts(%q) reads %v", v, ok)
		}
	}
	ns := privateNet(t)
	if ns == nil {
		return
	}
	in := testbed.Need(t)
	ours := buildPMCD(t)
	run := func(bin, env string, args ...string) string {
		dir := privateDirs(t)
		conf := filepath.Join(dir, "pmcd.conf")
		if err := os.WriteFile(conf, []byte(pmcdLine), 0o644); err != nil {
			t.Fatal(err)
		}
		fatal := filepath.Join(dir, "log", "fatal")
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		argv := append(append(ns[1:], bin, "-f", "-A", "-s", filepath.Join(dir, "run", "pmcd.socket"),
			"-l", filepath.Join(dir, "log", "pmcd.log"), "-x", fatal, "-c", conf), args...)
		cmd := exec.CommandContext(ctx, ns[0], argv...)
		cmd.Env = append(withoutPMCDVars(os.Environ()), "PCP_RUN_DIR="+filepath.Join(dir, "run"),
			"PCP_TMP_DIR="+filepath.Join(dir, "tmp"), "PMCD_ROOT_AGENT=0")
		cmd.Env = append(cmd.Env, strings.Fields(env)...)
		out, err := cmd.CombinedOutput()
		status := "exit 0"
		if ee, ok := err.(*exec.ExitError); ok {
			status = ee.String()
		} else if err != nil {
			t.Fatal(err)
		}
		note, _ := os.ReadFile(fatal)
		_, logErr := os.Stat(filepath.Join(dir, "log", "pmcd.log"))
		s := stamp.ReplaceAllString(string(out), "[TIME] pmcd(PID)") + status +
			"\nfatal: " + string(note) + "\nlog made: " + bool2s(logErr == nil)
		return strings.ReplaceAll(s, dir, "DIR")
	}
	for _, c := range []struct {
		env  string
		args []string
	}{
		{"PMCD_PORT=xyz", nil},
		{"PMCD_PORT=31780,xyz", nil},
		{"PMCD_PORT=31780,xyz", []string{"-p", "31781"}},
		{"PMCD_PORT=xyz", []string{"-p", "x"}},
		{"PMCD_PORT=xyz", []string{"-p", "31781,x"}},
		{"PMCD_PORT=xyz PMCD_CREDS_TIMEOUT=bogus", nil},
		{"PMCD_PORT=xyz PMCD_CREDS_TIMEOUT=0", nil},
		{"PMCD_PORT=xyz PMCD_CREDS_TIMEOUT=", nil},
		{"PMCD_PORT=xyz PMCD_CREDS_TIMEOUT=-2", []string{"-p", "31781"}},
		{"PMCD_PORT=xyz PMCD_CREDS_TIMEOUT=4294967296", nil},
		{"PMCD_PORT=xyz PMCD_CREDS_TIMEOUT=+7", nil},
		{"PMCD_PORT=xyz PMCD_CREDS_TIMEOUT=x", []string{"-q", "5"}},
	} {
		want := run(in.PMCD, c.env, c.args...)
		got := run(ours, c.env, c.args...)
		if got != want || !strings.Contains(want, "exit status 1") {
			t.Errorf("%s %q:\nPCP's:\n%s\nours:\n%s", c.env, c.args, want, got)
		}
	}
}

func bool2s(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
