package proc_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/agents/proc"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
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
	ours := bed(pcptest.GoCommand(t, "../../cmd/pmdaproc"), "-d", "3")
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
	ours = bed(pcptest.GoCommand(t, "../../cmd/pmdaproc"), "-d", "3", "-r", "/sys/fs/cgroup/mine")
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

// TestContainersMatchPCP names containers as a client (pminfo
// --container) over fixture trees of a cgroup2-only host and of a v1
// host, with PCP's pmdaroot finding a docker container in a private
// docker directory, and compares PCP's pmdaproc with ours (cmd/pmdaproc,
// and in-process under gopcp's pmcd with PCP's pmdaroot as a pipe
// agent): the container's processes only, where its cgroup lists them,
// and (cgroup2) its cgroups only; an unknown container's error; and,
// with no pmdaroot, the error of an agent that has none.
func TestContainersMatchPCP(t *testing.T) {
	const id = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	for _, h := range []struct {
		name, mounts, cgroups string
		procs                 string // the directory below the stats prefix whose container/cgroup.procs lists them
		groups                []string
	}{
		{name: "cgroup2", mounts: "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid 0 0\n",
			procs: "sys/fs/cgroup/machine.slice/" + id, groups: []string{"machine.slice/" + id, "other", ""}},
		{name: "v1", mounts: "cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,cpu,cpuacct 0 0\ncgroup /sys/fs/cgroup/memory cgroup rw,memory 0 0\n",
			cgroups: "#subsys_name\thierarchy\tnum_cgroups\tenabled\ncpu\t2\t1\t1\ncpuacct\t2\t1\t1\nmemory\t3\t1\t1\n",
			procs:   "sys/fs/cgroup/memory/" + id},
	} {
		t.Run(h.name, func(t *testing.T) {
			root := proc.FixtureTree(t, 5)
			write := func(path, text string) {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(filepath.Join(root, "proc", "mounts"), h.mounts)
			if h.cgroups != "" {
				write(filepath.Join(root, "proc", "cgroups"), h.cgroups)
			}
			// pmdaproc puts the stats prefix before a container's cgroup
			// path, which already starts with it.
			write(filepath.Join(root, root, h.procs, "container/cgroup.procs"), "1001\n1003\n")
			// cgroup.* too: a client naming the container sees the
			// cgroups whose path starts with the container's.
			for _, g := range h.groups {
				write(filepath.Join(root, "sys/fs/cgroup", g, "cpu.stat"), "usage_usec 2000\nuser_usec 1500\nsystem_usec 500\n")
			}
			docker := t.TempDir()
			write(filepath.Join(docker, "containers", id, "config.v2.json"),
				`{"State":{"Running":true,"Paused":false,"Restarting":false,"Pid":1001},"Name":"/web"}`)
			// pmdaroot finds the container's cgroup by its directory in a
			// cgroup tree of its own: ID, below the tree's top.
			if err := os.MkdirAll(filepath.Join(docker, "cgroup", "unified", id), 0o755); err != nil {
				t.Fatal(err)
			}
			env := []string{"PROC_STATSPATH=" + root, "PCP_DOCKER_DIR=" + docker,
				"PCP_CGROUP_DIR=" + filepath.Join(docker, "cgroup"), "PCP_CGROUP_CHECK_PATH=" + filepath.Join(docker, "none")}
			compareContainers(t, env, id, h.groups != nil)
		})
	}
}

// compareContainers asks PCP's pmdaproc and ours, beside PCP's pmdaroot
// in env, for the processes of the container web (ID id) and of an
// unknown one, then asks both without pmdaroot.
func compareContainers(t *testing.T, env []string, id string, groups bool) {
	rootAgent := testbed.PipeAgent("root", 1, "$PCP_VAR_DIR/pmns/root_root", "$PCP_PMDAS_DIR/root/pmdaroot")
	bed := func(withRoot bool, argv ...string) *testbed.PMCD {
		agents := []testbed.Agent{testbed.PMCDAgent(), testbed.PipeAgent("proc", 3, rootProc, argv...)}
		if withRoot {
			agents = append([]testbed.Agent{rootAgent}, agents...)
		}
		return testbed.StartPMCD(t, testbed.Options{Env: env, Agents: agents})
	}
	theirs := bed(true, "$PCP_PMDAS_DIR/proc/pmdaproc", "-d", "3")
	ours := map[string]*testbed.PMCD{
		"cmd/pmdaproc": bed(true, pcptest.GoCommand(t, "../../cmd/pmdaproc"), "-d", "3"),
		"in-process": testbed.StartGoPMCD(t, testbed.Options{Env: env, Agents: []testbed.Agent{rootAgent,
			testbed.PMCDAgent(), testbed.GoDSOAgent("proc", 3, "proc_init", rootProc)}}),
	}
	ask := func(p *testbed.PMCD, container string) string {
		r := p.Run("pminfo", "-h", "unix:"+p.SocketPath(), "--container="+container, "-f",
			"proc.psinfo.pid", "proc.nprocs", "proc.control.all.threads", "cgroup.cpu.stat.usage")
		return inOrder(r.Stdout) + r.Stderr
	}
	for _, container := range []string{"web", id, "nosuch"} {
		want := ask(theirs, container)
		found := strings.Contains(want, `"001001 `) && !strings.Contains(want, `"001000 `)
		if groups {
			found = found && !strings.Contains(want, `"/other"`) && strings.Contains(want, `"/machine.slice/`+id+`"`)
		}
		if container != "nosuch" && !found || container == "nosuch" && strings.Count(want, "Container not found") != 4 {
			t.Fatalf("PCP's answer for container %s is not the one the test is built on:\n%s", container, want)
		}
		for name, p := range ours {
			if got := ask(p, container); got != want {
				t.Errorf("%s, container %s:\n%s\nPCP's:\n%s", name, container, got, want)
			}
		}
	}

	theirs = bed(false, "$PCP_PMDAS_DIR/proc/pmdaproc", "-d", "3")
	want := ask(theirs, "web")
	if !strings.Contains(want, "Transport endpoint is not connected") {
		t.Fatalf("PCP's answer without pmdaroot is not the one the test is built on:\n%s", want)
	}
	if got := ask(bed(false, pcptest.GoCommand(t, "../../cmd/pmdaproc"), "-d", "3"), "web"); got != want {
		t.Errorf("without pmdaroot:\n%s\nPCP's:\n%s", got, want)
	}
}

// inOrder sorts each metric's value lines in pminfo's output: PCP's
// agent lists processes in its hash table's order.
func inOrder(out string) string {
	var b strings.Builder
	var vals []string
	flush := func() {
		slices.Sort(vals)
		for _, v := range vals {
			b.WriteString(v + "\n")
		}
		vals = vals[:0]
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, " ") {
			vals = append(vals, l)
			continue
		}
		flush()
		b.WriteString(l + "\n")
	}
	flush()
	return b.String()
}
