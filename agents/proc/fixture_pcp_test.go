package proc_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/agents/proc"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestFixtureMatchesPCP: on the same fixture tree (PROC_STATSPATH),
// every proc.* value of every process is PCP's. (The damaged trees of
// TestDamagedTree are not compared: PCP's agent dies on some of them, a
// stat without its closing parenthesis for one.)
func TestFixtureMatchesPCP(t *testing.T) {
	root := proc.FixtureTree(t, 40)
	env := []string{"PROC_STATSPATH=" + root}
	bed := func(argv ...string) *testbed.PMCD {
		return testbed.StartPMCD(t, testbed.Options{Env: env, Agents: []testbed.Agent{testbed.PMCDAgent(),
			testbed.PipeAgent("proc", 3, rootProc, argv...)}})
	}
	theirs := bed("$PCP_PMDAS_DIR/proc/pmdaproc", "-d", "3")
	ours := bed(buildDaemon(t), "-d", "3")
	metrics := []string{"proc.psinfo", "proc.memory", "proc.id", "proc.io", "proc.schedstat", "proc.fd",
		"proc.namespaces", "proc.nprocs", "proc.runq", "proc.autogroup", "proc.smaps"}
	compared := 0
	for pid := 1000; pid < 1040; pid++ {
		want := values(t, theirs, pid, metrics...)
		got := values(t, ours, pid, metrics...)
		for m, w := range want {
			if m == "proc.psinfo.ngid" {
				continue // PCP's string table index (docs/proc.md)
			}
			if got[m] != w {
				t.Errorf("pid %d: %s: %q, PCP's %q", pid, m, got[m], w)
			}
			compared++
		}
		for m, g := range got {
			if _, ok := want[m]; !ok {
				t.Errorf("pid %d: %s: %q where PCP's has none", pid, m, g)
			}
		}
	}
	wantI, gotI := instances(t, theirs), instances(t, ours)
	if len(wantI) != 40 || len(gotI) != len(wantI) {
		t.Errorf("instances: ours %d, PCP's %d", len(gotI), len(wantI))
	}
	for l := range wantI {
		if !gotI[l] {
			t.Errorf("no %s", l)
		}
	}
	t.Logf("%d values and %d instance names equal PCP's", compared, len(wantI))

	// -r: the processes of a cgroup's file, found where PCP's agent
	// looks for it.
	cg := filepath.Join(root, "sys", "fs", "cgroup", "mine", "container")
	os.MkdirAll(cg, 0o755)
	os.WriteFile(filepath.Join(cg, "cgroup.procs"), []byte("1007\n1003\n1031\n"), 0o644)
	theirs = bed("$PCP_PMDAS_DIR/proc/pmdaproc", "-d", "3", "-r", "/sys/fs/cgroup/mine")
	ours = bed(buildDaemon(t), "-d", "3", "-r", "/sys/fs/cgroup/mine")
	wantI, gotI = instances(t, theirs), instances(t, ours)
	if len(wantI) != 3 || len(gotI) != 3 {
		t.Errorf("with -r: ours %v, PCP's %v", gotI, wantI)
	}
	for l := range wantI {
		if !gotI[l] {
			t.Errorf("with -r: no %s", l)
		}
	}
}
