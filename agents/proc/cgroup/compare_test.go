package cgroup

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// pcpProc is PCP's own pmdaproc for a test bed.
func pcpProc() testbed.Agent {
	return testbed.PipeAgent("proc", Domain, "$PCP_PMDAS_DIR/proc/root_proc", "$PCP_PMDAS_DIR/proc/pmdaproc", "-d", "3")
}

// ourProc is this package's test agent, the test binary run again.
func ourProc(t *testing.T, root string) testbed.Agent {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return testbed.PipeAgent("proc", Domain, "$PCP_PMDAS_DIR/proc/root_proc", "/usr/bin/env",
		agentEnv+"=1", "GOPCP_CGROUP_TEST_ROOT="+root, exe, "-d", "3")
}

// pminfo runs PCP's pminfo against a bed.
func pminfo(t *testing.T, p *testbed.PMCD, args ...string) string {
	t.Helper()
	bin, err := p.Install().Tool("pminfo")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"-h", p.Host()}, args...)...)
	cmd.Env = p.Env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pminfo %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestDescsMatchPCP: pminfo -d of every cgroup.* metric, and the labels
// of the metrics and their instance domains, the same from PCP's pmdaproc
// and from ours.
func TestDescsMatchPCP(t *testing.T) {
	theirs := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), pcpProc()}})
	ours := testbed.StartGoPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), ourProc(t, "")}})
	for _, tree := range []string{"cgroup", "acct"} {
		want := pminfo(t, theirs, "-d", tree)
		got := pminfo(t, ours, "-d", tree)
		if got != want {
			t.Errorf("pminfo -d %s differs:\n%s", tree, lineDiff(want, got))
		}
		t.Logf("%d %s metrics' descriptors compared", strings.Count(want, "\n    Data Type:"), tree)
		want = pminfo(t, theirs, "-l", tree)
		got = pminfo(t, ours, "-l", tree)
		if got != want {
			t.Errorf("pminfo -l %s differs:\n%s", tree, lineDiff(want, got))
		}
	}
}

// TestValuesMatchPCP: the values of every cgroup.* metric on this host,
// fetched from both agents; metrics whose values move between two fetches
// (counters of the host's activity) are compared by instances only.
func TestValuesMatchPCP(t *testing.T) {
	theirs := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), pcpProc()}})
	ours := testbed.StartGoPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), ourProc(t, "")}})
	same, moving, valued := 0, 0, 0
	names := []string{}
	for _, d := range pcpDescs {
		names = append(names, d.name)
	}
	names = append(names, strings.Fields(pminfo(t, theirs, "acct"))...)
	for _, name := range names {
		d := struct{ name string }{name}
		// Two fetches of PCP's agent bracket ours: a value the same in
		// both of PCP's is stable and must be ours too.
		a := pminfo(t, theirs, "-f", d.name)
		got := pminfo(t, ours, "-f", d.name)
		b := pminfo(t, theirs, "-f", d.name)
		if strings.Contains(a, " value ") {
			valued++
		}
		if a != b {
			moving++
			if instances(a) != instances(got) {
				t.Errorf("%s: instances differ:\nPCP:\n%s\nours:\n%s", d.name, a, got)
			}
			continue
		}
		if got != a {
			t.Errorf("%s differs:\nPCP:\n%s\nours:\n%s", d.name, a, got)
		}
		same++
	}
	t.Logf("%d metrics (%d with values) compared: %d by value, %d moving ones by instances", len(names), valued, same, moving)
}

// instances keeps the instance part of pminfo -f lines.
func instances(out string) string {
	var b strings.Builder
	for _, l := range strings.Split(out, "\n") {
		if k := strings.Index(l, "] value "); k >= 0 {
			l = l[:k+1]
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

// lineDiff lists the lines of want and got that differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var x, y string
		if i < len(w) {
			x = w[i]
		}
		if i < len(g) {
			y = g[i]
		}
		if x != y {
			b.WriteString("- " + x + "\n+ " + y + "\n")
		}
	}
	return b.String()
}
