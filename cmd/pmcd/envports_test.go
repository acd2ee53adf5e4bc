package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestEnvPortsLikePCP starts PCP's pmcd and ours with PMCD_PORT set as
// well as -p, and with PMCD_LOCAL: PMCD_PORT's ports come first and
// -p's after them, a repeated port is warned of and bound once, and the
// log says what the environment gave. The warnings and the table of
// request ports are the same.
func TestEnvPortsLikePCP(t *testing.T) {
	t.Parallel()
	in := testbed.Need(t)
	ours := buildPMCD(t)
	free := func() int {
		p, release, err := testbed.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		// Held to the test's end: each daemon given it has exited by
		// then (run waits for it), and another run must not take it
		// before the daemon binds.
		t.Cleanup(release)
		return p
	}
	keep := regexp.MustCompile(`(?m)^(Warning: .*|.*\) Warning: .*|  (ok|err) .* (inet|ipv6) .*)$`)
	run := func(bin string, env []string, args ...string) string {
		dir := privateDirs(t)
		conf := filepath.Join(dir, "pmcd.conf")
		if err := os.WriteFile(conf, []byte(pmcdLine), 0o644); err != nil {
			t.Fatal(err)
		}
		logPath := filepath.Join(dir, "log", "pmcd.log")
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, append([]string{"-f", "-A", "-s", filepath.Join(dir, "run", "pmcd.socket"),
			"-l", logPath, "-x", filepath.Join(dir, "log", "fatal"), "-c", conf}, args...)...)
		cmd.Env = append(append(withoutPMCDVars(os.Environ()), "PCP_RUN_DIR="+filepath.Join(dir, "run"),
			"PCP_TMP_DIR="+filepath.Join(dir, "tmp"), "PMCD_ROOT_AGENT=0"), env...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var log []byte
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if log, _ = os.ReadFile(logPath); strings.Contains(string(log), "pmcd request port(s)") {
				break
			}
		}
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
		lines := keep.FindAllString(string(log)+stderr.String(), -1)
		out := strings.Join(lines, "\n")
		return stamp.ReplaceAllString(regexp.MustCompile(`(?m)^  (ok|err)\s+-?\d+`).ReplaceAllString(out, "  $1 FD"), "[TIME] pmcd(PID)")
	}
	a, b := free(), free()
	name := strings.NewReplacer(strconv.Itoa(a), "A", strconv.Itoa(b), "B")
	for _, c := range []struct {
		env  []string
		args []string
	}{
		{[]string{"PMCD_PORT=" + strconv.Itoa(a)}, []string{"-p", strconv.Itoa(b) + "," + strconv.Itoa(a)}},
		{[]string{"PMCD_PORT=" + strconv.Itoa(a), "PMCD_LOCAL=1x"}, nil},
		// atoi's int: 2^32 is 0 (not local), 2^32+1 is 1.
		{[]string{"PMCD_PORT=" + strconv.Itoa(a), "PMCD_LOCAL=4294967296"}, nil},
		{[]string{"PMCD_PORT=" + strconv.Itoa(a), "PMCD_LOCAL= 4294967297"}, nil},
	} {
		want := name.Replace(run(in.PMCD, c.env, c.args...))
		got := name.Replace(run(ours, c.env, c.args...))
		if got != want || !strings.Contains(want, "from PMCD_PORT=A") {
			t.Errorf("%q %q:\nPCP's:\n%s\nours:\n%s", c.env, c.args, want, got)
		}
	}
}
