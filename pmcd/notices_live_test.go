package pmcd_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// noticesScript drives two libpcp clients of bed, A fetching a metric of
// the sample agent and B one of pmcd's own, through a SIGHUP adding an
// agent, a change of the host's labels, a SIGHUP with nothing changed,
// the death of sample's process and its restart, and a SIGHUP dropping
// the added agent, and returns what each fetch returned.
func noticesScript(t *testing.T, bed *testbed.PMCD, labels string, autoRestart bool) string {
	t.Helper()
	var log strings.Builder
	a := pcptest.StartFetchClient(t, bed.Host(), bed.Env(), false, "sample.long.one")
	b := pcptest.StartFetchClient(t, bed.Host(), bed.Env(), false, "pmcd.numagents")
	A := func() { fmt.Fprintf(&log, "  A: %s\n", a.Fetch(t)) }
	B := func() { fmt.Fprintf(&log, "  B: %s\n", b.Fetch(t)) }
	// Each step also records pmcd.labels, the labels pmcd last saw (a
	// fetch of it is no request for labels, so it changes nothing).
	step := func(what string, fs ...func()) {
		log.WriteString(what + "\n")
		for _, f := range fs {
			f()
		}
		res := bed.Run("pminfo", "-h", bed.Host(), "-f", "pmcd.labels")
		log.WriteString("  " + strings.ReplaceAll(strings.TrimSpace(res.Stdout+res.Stderr), "\n", " ") + "\n")
	}
	sighups := 0
	// hup signals pmcd and waits until it has counted the signal (ours
	// counts it once it has acted on it; PCP's acts on it before it
	// answers the next request) and until done reports true.
	hup := func(what string, done func() (bool, string)) {
		t.Helper()
		if err := syscall.Kill(bed.PID(), syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		sighups++
		want := fmt.Sprintf("pmcd.sighups\n    value %d\n", sighups)
		eventually(t, what, func() (bool, string) {
			res := bed.Run("pminfo", "-h", bed.Host(), "-f", "pmcd.sighups")
			if !strings.Contains(res.Stdout, want) {
				return false, res.Stdout + res.Stderr
			}
			if done == nil {
				return true, ""
			}
			return done()
		})
	}
	step("start", A, B, A)

	confPath := bed.ConfPath()
	conf, _ := addSampleTwo(t, bed)
	hup("agent added", func() (bool, string) {
		res := bed.Run("pminfo", "-h", bed.Host(), "-f", "sampletwo.one")
		return strings.Contains(res.Stdout, "value 1\n"), res.Stdout + res.Stderr
	})
	step("agent added", A, B, A, B)

	if err := os.WriteFile(filepath.Join(labels, "notice.json"), []byte(`{"notice":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// Until pmcd looks again, pmcd.labels shows what it saw last, or
	// the labels as they are now if it saw none.
	step("labels written", A)
	hup("labels changed", nil)
	step("labels changed", A, B, A)

	hup("nothing changed", nil)
	step("nothing changed", A, B)

	sample := childOf(t, bed.PID(), "pmdasample -d 29 ")
	if sample == 0 {
		t.Fatal("no sample agent process")
	}
	if err := syscall.Kill(sample, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	eventually(t, "sample's process gone", func() (bool, string) { return processGone(sample), "running" })
	// The request finds the agent dead; pmcd restarts it then, or at
	// the next SIGHUP when restarts are off.
	step("sample killed", A)
	back := func() (bool, string) {
		pid := childOf(t, bed.PID(), "pmdasample -d 29 ")
		return pid != 0 && pid != sample, fmt.Sprint("pid ", pid)
	}
	if autoRestart {
		eventually(t, "sample restarted", back)
	} else {
		step("sample still dead", A, B)
		hup("sample restarted by SIGHUP", back)
	}
	step("sample restarted", A, B, A)

	two := childOf(t, bed.PID(), "pmdasample -d 30 ")
	writeFile(t, confPath, conf)
	hup("agent dropped", func() (bool, string) { return two == 0 || processGone(two), "sampletwo running" })
	step("agent dropped", A, B, A)
	return log.String()
}

// TestNoticesAsPCP: PCP's pmcd and ours tell their clients alike of
// agents added, restarted and dropped and of labels changed: two
// libpcp clients see the same pmFetch returns (and value counts) from
// both through the same SIGHUPs, agent death and restart; with labels
// configured from the start or not (the first check of labels finds a
// change only if some are), and with automatic restarts or not.
func TestNoticesAsPCP(t *testing.T) {
	t.Parallel()
	pcptest.NeedCompiler(t)
	for _, tc := range []struct {
		name        string
		labels      bool
		autoRestart bool
	}{
		{"no labels, restarts", false, true},
		{"labels, no restarts", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := map[string]string{}
			for _, b := range bedStarters {
				sysconf := t.TempDir()
				labels := filepath.Join(sysconf, "labels")
				if err := os.Mkdir(labels, 0o755); err != nil {
					t.Fatal(err)
				}
				if tc.labels {
					if err := os.WriteFile(filepath.Join(labels, "start.json"), []byte(`{"start":1}`), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				env := []string{"PCP_SYSCONF_DIR=" + sysconf}
				if !tc.autoRestart {
					env = append(env, "PMCD_RESTART_AGENTS=0")
				}
				bed := b.start(t, testbed.Options{Env: env})
				got[b.name] = noticesScript(t, bed, labels, tc.autoRestart)
			}
			if got["PCP"] != got["gopcp"] {
				t.Errorf("fetch returns differ; ours:\n%s\nPCP's:\n%s", got["gopcp"], got["PCP"])
			} else {
				t.Logf("%d fetches and pmcd.labels at each step as PCP's:\n%s", strings.Count(got["PCP"], "fetch "), got["PCP"])
			}
			// Every notice was given: added, restarted, dropped, labels.
			seen := 0
			for _, m := range regexp.MustCompile(`fetch (\d+) `).FindAllStringSubmatch(got["PCP"], -1) {
				n, _ := strconv.Atoi(m[1])
				seen |= n
			}
			if seen != 1|2|4|8 {
				t.Errorf("PCP's pmcd gave the notices %#x only, not 0xf", seen)
			}
		})
	}
}
