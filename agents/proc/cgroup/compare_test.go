package cgroup

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	return pminfoAt(t, p, p.Host(), args...)
}

// pminfoAt runs PCP's pminfo against host, a host specification of p.
func pminfoAt(t *testing.T, p *testbed.PMCD, host string, args ...string) string {
	t.Helper()
	bin, err := p.Install().Tool("pminfo")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"-h", host}, args...)...)
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
		if help := pminfo(t, ours, "-t", tree); strings.Contains(help, "Error") || strings.Count(help, "\n") < 20 {
			t.Errorf("pminfo -t %s of ours:\n%s", tree, help)
		}
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
		names = append(names, d.Name)
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

// lineDiff shows how got differs from want: diff -u's output, or both
// whole when diff cannot be run.
func lineDiff(want, got string) string {
	dir, err := os.MkdirTemp("", "cgroup-diff")
	if err == nil {
		defer os.RemoveAll(dir)
		w, g := filepath.Join(dir, "pcp"), filepath.Join(dir, "ours")
		if os.WriteFile(w, []byte(want), 0o644) == nil && os.WriteFile(g, []byte(got), 0o644) == nil {
			out, _ := exec.Command("diff", "-u", w, g).CombinedOutput()
			if len(out) > 0 {
				return string(out)
			}
		}
	}
	return "PCP:\n" + want + "\nours:\n" + got
}

// pcpProcAt is PCP's pmdaproc reading the tree at root (PROC_STATSPATH).
func pcpProcAt(root string) testbed.Agent {
	return testbed.PipeAgent("proc", Domain, "$PCP_PMDAS_DIR/proc/root_proc", "/usr/bin/env",
		"PROC_STATSPATH="+root, "$PCP_PMDAS_DIR/proc/pmdaproc", "-d", "3")
}

// TestTreesMatchPCP: on fixture trees of a cgroup2-only, a v1 and a hybrid
// host, damaged files included, every cgroup.* value, instance and label
// from our agent is PCP's pmdaproc's, metric by metric (pminfo -f), all at
// once (pmprobe -v, one fetch of every metric), and again after both (the
// caches' second round).
func TestTreesMatchPCP(t *testing.T) {
	for _, tree := range []string{"v2", "v1", "hybrid"} {
		t.Run(tree, func(t *testing.T) {
			root := buildTree(t, tree)
			theirs := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), pcpProcAt(root)}})
			ours := testbed.StartGoPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), ourProc(t, root)}})
			runs := [][]string{
				{"-f", "cgroup"},
				{"-l", "cgroup"},
				{"-f", "cgroup.cpuacct", "cgroup.memory", "cgroup.cpusched", "cgroup.pressure.cpu"},
				{"-f", "cgroup"},
			}
			for _, args := range runs {
				want := pminfo(t, theirs, args...)
				got := pminfo(t, ours, args...)
				if got != want {
					t.Errorf("pminfo %v differs:\n%s", args, lineDiff(want, got))
				}
			}
			want := pmprobe(t, theirs, "-v", "cgroup")
			got := pmprobe(t, ours, "-v", "cgroup")
			if got != want {
				t.Errorf("pmprobe -v cgroup differs:\n%s", lineDiff(want, got))
			}
			n := 0
			for _, l := range strings.Split(want, "\n") {
				if f := strings.Fields(l); len(f) > 1 && f[1] != "0" && !strings.HasPrefix(f[1], "-") {
					n++
				}
			}
			t.Logf("%s: %d of %d metrics with values, all equal", tree, n, len(pcpDescs))

			// Cgroups come and go: one removed, one added, the removed
			// one back; instance numbers and values stay PCP's.
			gone := filepath.Join(root, map[string]string{
				"v2":     "sys/fs/cgroup/empty",
				"v1":     "sys/fs/cgroup/memory/system.slice",
				"hybrid": "sys/fs/cgroup/memory/process_api",
			}[tree])
			steps := []func() error{
				func() error { return os.Rename(gone, gone+".away") },
				func() error { return os.MkdirAll(filepath.Join(filepath.Dir(gone), "new", "deeper"), 0o755) },
				func() error { return os.Rename(gone+".away", gone) },
			}
			for i, step := range steps {
				if err := step(); err != nil {
					t.Fatal(err)
				}
				for _, args := range [][]string{{"-f", "cgroup"}, {"-l", "cgroup"}} {
					want := pminfo(t, theirs, args...)
					got := pminfo(t, ours, args...)
					if got != want {
						t.Errorf("step %d: pminfo %v differs:\n%s", i, args, lineDiff(want, got))
					}
				}
			}
		})
	}
}

func pmprobe(t *testing.T, p *testbed.PMCD, args ...string) string {
	t.Helper()
	bin, err := p.Install().Tool("pmprobe")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"-h", p.Host()}, args...)...)
	cmd.Env = p.Env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pmprobe %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestAcctStoresMatchPCP: pmstore of the acct control metrics answers
// and changes them as PCP's pmdaproc does: refused over TCP (no user),
// done for root over the Unix socket (enable_acct is left alone: it would
// turn the kernel's process accounting on for the whole host).
func TestAcctStoresMatchPCP(t *testing.T) {
	theirs := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), pcpProc()}})
	ours := testbed.StartGoPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), ourProc(t, "")}})
	if os.Getuid() != 0 {
		t.Log("not root: the Unix socket stores are refused on both sides too")
	}
	stores := [][2]string{
		{"acct.control.lifetime", "30"},
		{"acct.control.open_retry_interval", "7"},
		{"acct.control.check_acct_interval", "8"},
		{"acct.control.file_size_threshold", "4294967305"},
		{"acct.control.refresh", "0"},
		{"acct.control.refresh", "120"},
		{"acct.psinfo.pid", "1"},
		{"cgroup.subsys.count", "1"},
	}
	for _, unix := range []bool{false, true} {
		hostOf := func(p *testbed.PMCD) string {
			if unix {
				return "unix:" + p.SocketPath()
			}
			return p.Host()
		}
		for _, st := range stores {
			want := pmstoreOut(t, theirs, hostOf(theirs), st[0], st[1])
			got := pmstoreOut(t, ours, hostOf(ours), st[0], st[1])
			if got != want {
				t.Errorf("pmstore -h %s %s %s:\nPCP:  %s\nours: %s", hostOf(ours), st[0], st[1], want, got)
			}
			if st[0] == "acct.control.lifetime" {
				refused := strings.Contains(want, "No permission")
				if refused != (!unix || os.Getuid() != 0) {
					t.Errorf("PCP's answer to a store over unix=%v: %s", unix, want)
				}
				t.Logf("unix %v: %s", unix, strings.TrimSpace(got))
			}
		}
		want := pminfo(t, theirs, "-f", "acct")
		got := pminfo(t, ours, "-f", "acct")
		if got != want {
			t.Errorf("acct after the stores (unix %v) differs:\n%s", unix, lineDiff(want, got))
		}
	}
}

// pmstoreOut runs PCP's pmstore, its output and exit status together.
func pmstoreOut(t *testing.T, p *testbed.PMCD, host, name, value string) string {
	t.Helper()
	bin, err := p.Install().Tool("pmstore")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-h", host, name, value)
	cmd.Env = p.Env()
	out, err := cmd.CombinedOutput()
	return fmt.Sprintf("%s(%v)", out, err)
}
