package proc_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestHotprocMatchesPCP: the same predicate stored in PCP's agent and in
// ours (as root, through the Unix socket) is written back the same, and
// selects the same process the test starts, with the same values.
func TestHotprocMatchesPCP(t *testing.T) {
	b := startBeds(t)
	// The sleep's argument names this test process, so another run of
	// this test on the machine (its own sleep) is never selected too.
	arg := fmt.Sprintf("1007.%d", os.Getpid())
	pid := child(t, "sleep", arg)
	pred := fmt.Sprintf(`Version 1.0
# the test's own process
fname == "sleep" && psargs ~ /^sleep %s$/ || uid == 4294967295`, strings.ReplaceAll(arg, ".", `\.`))
	all := map[string]*testbed.PMCD{"PCP": b.pcp, "cmd/pmdaproc": b.daemon, "in-process": b.inproc}
	for name, p := range all {
		for _, s := range [][2]string{{"hotproc.control.refresh", "1"}, {"hotproc.control.config", pred}} {
			if r := p.Run("pmstore", "-h", "unix:"+p.SocketPath(), s[0], s[1]); r.Err != nil {
				t.Fatalf("%s: pmstore %s: %v\n%s%s", name, s[0], r.Err, r.Stdout, r.Stderr)
			}
		}
	}
	metrics := []string{"hotproc.control.config", "hotproc.control.config_gen", "hotproc.control.refresh",
		"hotproc.psinfo.pid", "hotproc.psinfo.cmd", "hotproc.psinfo.psargs", "hotproc.memory.vmrss",
		"hotproc.id.uid", "hotproc.predicate.virtualsize", "hotproc.predicate.residentsize", "hotproc.nprocs",
		"hotproc.predicate.cpuburn"}
	// Wait (at most a minute) for each agent's first lists after its
	// refresh interval.
	got := map[string]map[string]string{}
	for name, p := range all {
		for start := time.Now(); ; {
			v := hostValues(t, "unix:"+p.SocketPath(), pid, metrics...)
			if strings.Contains(v["hotproc.psinfo.pid"], fmt.Sprint(pid)) && v["hotproc.nprocs"] == "1" {
				got[name] = v
				break
			}
			if time.Since(start) > time.Minute {
				t.Fatalf("%s: no hot process after a minute: %v", name, v)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	want := got["PCP"]
	if !strings.HasPrefix(want["hotproc.control.config"], `"(((fname == `) {
		t.Fatalf("PCP's agent: %v", want)
	}
	for name, v := range got {
		for _, m := range metrics {
			if v[m] != want[m] {
				t.Errorf("%s: %s: %s, PCP's %s", name, m, v[m], want[m])
			}
		}
	}
	t.Logf("%d hotproc values equal PCP's: %v", len(metrics), want)
}
