package proc_test

import (
	"strings"
	"testing"
)

// TestSourcesMatchPCP: the cgroup.* and acct.* metrics the agent routes
// to agents/proc/cgroup and agents/proc/acct are PCP's through each
// daemon's Unix socket: pminfo -dl (descriptors, labels and the cgroup
// instances' labels), and the cgroup instance lists.
func TestSourcesMatchPCP(t *testing.T) {
	b := startBeds(t)
	want := run(t, b.pcp, "pminfo", "-dl", "cgroup", "acct")
	n := strings.Count(want, "\n    Data Type:")
	if n < 200 {
		t.Fatalf("PCP's pmdaproc describes %d cgroup and acct metrics:\n%s", n, want)
	}
	wantI := run(t, b.pcp, "pminfo", "-f", "cgroup.memory.usage", "cgroup.subsys.hierarchy", "cgroup.mounts.subsys")
	for name, p := range b.ours() {
		got := run(t, p, "pminfo", "-dl", "cgroup", "acct")
		if got != want {
			t.Errorf("%s: pminfo -dl cgroup acct differs from PCP's:\n%s", name, diff(want, got))
		} else {
			t.Logf("%s: %d cgroup and acct descriptors and their labels equal PCP's", name, n)
		}
		gotI := run(t, p, "pminfo", "-f", "cgroup.memory.usage", "cgroup.subsys.hierarchy", "cgroup.mounts.subsys")
		if instNames(gotI) != instNames(wantI) {
			t.Errorf("%s: cgroup instances:\n%s\nPCP's:\n%s", name, instNames(gotI), instNames(wantI))
		}
	}
}

// instNames keeps the metric and instance parts of pminfo -f's lines.
func instNames(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if i := strings.Index(l, "] value "); i >= 0 {
			l = l[:i+1]
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
