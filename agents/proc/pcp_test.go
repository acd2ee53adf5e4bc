package proc_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// TestMain removes the programs built for the tests.
func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }

// beds are the three daemons the comparisons run against: PCP's pmcd
// with PCP's pmdaproc, PCP's pmcd with our cmd/pmdaproc, and gopcp's
// pmcd with the agent in-process.
type beds struct{ pcp, daemon, inproc *testbed.PMCD }

const rootProc = "$PCP_VAR_DIR/pmns/root_proc"

func startBeds(t *testing.T) beds {
	t.Helper()
	var b beds
	b.pcp = testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(),
		testbed.PipeAgent("proc", 3, rootProc, "$PCP_PMDAS_DIR/proc/pmdaproc", "-d", "3")}})
	b.daemon = testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(),
		testbed.PipeAgent("proc", 3, rootProc, pcptest.GoCommand(t, "../../cmd/pmdaproc"), "-d", "3")}})
	b.inproc = testbed.StartGoPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(),
		testbed.GoDSOAgent("proc", 3, "proc_init", rootProc)}})
	return b
}

func (b beds) ours() map[string]*testbed.PMCD {
	return map[string]*testbed.PMCD{"cmd/pmdaproc": b.daemon, "in-process": b.inproc}
}

// run runs a PCP tool against a bed's Unix socket.
func run(t *testing.T, p *testbed.PMCD, tool string, args ...string) string {
	t.Helper()
	r := p.Run(tool, append([]string{"-h", "unix:" + p.SocketPath()}, args...)...)
	if r.Err != nil {
		t.Fatalf("%s %v: %v\n%s%s", tool, args, r.Err, r.Stdout, r.Stderr)
	}
	return r.Stdout
}

// TestDescriptorsMatchPCP: pminfo -dl of every proc.* and hotproc.*
// metric is PCP's, in PCP's order, through each daemon's Unix socket:
// descriptors, metric labels, and the instance labels of pid 1 (other
// processes come and go between the runs).
func TestDescriptorsMatchPCP(t *testing.T) {
	b := startBeds(t)
	want := stableLines(run(t, b.pcp, "pminfo", "-dl", "proc", "hotproc"))
	n := strings.Count(want, "\n    Data Type:")
	if n < 300 || !strings.Contains(want, `inst [1 or "000001 `) {
		t.Fatalf("PCP's pmdaproc describes %d metrics:\n%s", n, want)
	}
	for name, p := range b.ours() {
		got := stableLines(run(t, p, "pminfo", "-dl", "proc", "hotproc"))
		if got != want {
			t.Errorf("%s: pminfo -dl differs from PCP's:\n%s", name, diff(want, got))
			continue
		}
		t.Logf("%s: %d descriptors and their labels equal PCP's", name, n)
	}
}

// stableLines drops the instance label lines of processes other than 1.
func stableLines(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "inst [") && !strings.Contains(l, "inst [1 or ") || strings.Contains(l, "pmNameIndom") {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// diff lists the lines only one side has.
func diff(want, got string) string {
	w := strings.Split(want, "\n")
	g := strings.Split(got, "\n")
	ws, gs := map[string]bool{}, map[string]bool{}
	for _, l := range w {
		ws[l] = true
	}
	for _, l := range g {
		gs[l] = true
	}
	var out []string
	for _, l := range w {
		if !gs[l] {
			out = append(out, "- "+l)
		}
	}
	for _, l := range g {
		if !ws[l] {
			out = append(out, "+ "+l)
		}
	}
	if len(out) > 60 {
		out = append(out[:60], "...")
	}
	return strings.Join(out, "\n")
}

// child starts a process the test owns and stops it when the test ends.
func child(t *testing.T, args ...string) int {
	cmd := exec.Command(args[0], args[1:]...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	settle(t, cmd.Process.Pid, args[0] == "sh")
	return cmd.Process.Pid
}

// settle waits until the process has become what it will stay, so that
// two agents asked one after the other see the same values: past any
// shell's exec (its command no longer sh) and asleep (state S), after
// which its names, sizes and switch counts no longer move. An agent
// asked earlier sees a process still starting, and the one asked later
// another.
func settle(t *testing.T, pid int, viaShell bool) {
	t.Helper()
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			t.Fatalf("pid %d: %v", pid, err)
		}
		open, end := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
		if open >= 0 && end > open && end+2 < len(stat) {
			comm, state := string(stat[open+1:end]), stat[end+2]
			if state == 'S' && (!viaShell || comm != "sh") {
				return
			}
		}
		if time.Since(start) > time.Minute {
			t.Fatalf("pid %d not settled after a minute: %s", pid, stat)
		}
	}
}

// values fetches metrics through the bed's Unix socket and returns the
// values (or the set's error) for instance inst, by metric name.
func values(t *testing.T, p *testbed.PMCD, inst int, metrics ...string) map[string]string {
	// A set without values carries the last process's answer, and the
	// last differs between the agents (PCP's lists in hash order) when a
	// process has just gone: only errors all processes share are
	// compared.
	return fetchAt(t, "unix:"+p.SocketPath(), inst, metrics, true, func(e pcp.Error) bool { return e != pcp.ErrAppVersion })
}

// fetchAt fetches metrics (every leaf below them with traverse)
// through a host specification: each one's value of instance inst (or
// its only value) as pminfo prints it, or its set's error where keep
// says so.
func fetchAt(t *testing.T, spec string, inst int, metrics []string, traverse bool, keep func(pcp.Error) bool) map[string]string {
	ctx := context.Background()
	c, err := pmapi.NewHostContext(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	names := metrics
	if traverse {
		names = nil
		for _, m := range metrics {
			n, err := c.Traverse(ctx, m)
			if err != nil {
				t.Fatalf("%s: %v", m, err)
			}
			names = append(names, n...)
		}
	}
	ids, err := c.LookupNames(ctx, names)
	if err != nil {
		t.Fatal(err)
	}
	descs, err := c.LookupDescs(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	var r pcp.Result
	if _, err := c.Fetch(ctx, ids, &r); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for i, set := range r.Sets {
		if set.NumVal < 0 {
			if e := pcp.Error(set.NumVal); keep(e) {
				got[names[i]] = e.Error()
			}
			continue
		}
		for j := range set.Values {
			v := &set.Values[j]
			if v.Inst == int32(inst) || v.Inst == pcp.InstNull {
				got[names[i]] = pcp.FormatValue(set.ValFmt, descs[i].Type, v, 0)
			}
		}
	}
	return got
}

// stableMetrics are the proc.* metrics whose values do not change while
// a sleeping process sleeps.
var stableMetrics = []string{"proc.psinfo", "proc.id", "proc.memory", "proc.namespaces", "proc.fd",
	"proc.smaps", "proc.autogroup", "proc.io", "proc.control", "proc.nprocs"}

// volatile are left out: values of the whole host, of the process that
// change with the scheduler, and proportional shares, which change as
// other processes map the same pages. proc.psinfo.ngid is left out
// because PCP 6.0.3's agent serves an index into its private string
// table there, not the NUMA group id (docs/proc.md).
// The smaps split of clean pages into private and shared moves with the
// other processes mapping the same files (another run's sleep makes this
// one's pages shared), as the proportional sizes do.
var volatile = map[string]bool{"proc.nprocs": true, "proc.psinfo.processor": true,
	"proc.smaps.pss": true, "proc.smaps.pss_file": true, "proc.smaps.pss_anon": true,
	"proc.smaps.pss_shmem": true, "proc.psinfo.ngid": true,
	"proc.smaps.private_clean": true, "proc.smaps.shared_clean": true}

// TestValuesMatchPCP: every stable value of processes the test starts is
// PCP's, through each daemon's Unix socket.
func TestValuesMatchPCP(t *testing.T) {
	b := startBeds(t)
	pids := []int{child(t, "sleep", "1000"), child(t, "sh", "-c", "exec sleep 1001 # an argument")}
	for _, pid := range pids {
		want := values(t, b.pcp, pid, stableMetrics...)
		if len(want) < 100 {
			t.Fatalf("PCP's agent gave %d values for pid %d: %v", len(want), pid, want)
		}
		for name, p := range b.ours() {
			got := values(t, p, pid, stableMetrics...)
			same := 0
			for m, w := range want {
				if volatile[m] {
					continue
				}
				if got[m] != w {
					t.Errorf("%s: pid %d: %s: %q, PCP's %q", name, pid, m, got[m], w)
					continue
				}
				same++
			}
			for m := range got {
				if _, ok := want[m]; !ok {
					t.Errorf("%s: pid %d: %s: %q where PCP's has none", name, pid, m, got[m])
				}
			}
			t.Logf("%s: pid %d: %d values equal PCP's", name, pid, same)
		}
	}
}

// instances is a bed's process instance list, "ID NAME" lines.
func instances(t *testing.T, p *testbed.PMCD) map[string]bool {
	lines := map[string]bool{}
	o := run(t, p, "pminfo", "-f", "proc.psinfo.pid")
	for _, l := range strings.Split(o, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "inst [") {
			lines[l[:strings.Index(l, "] ")+1]] = true
		}
	}
	return lines
}

// TestInstancesMatchPCP: the process instance lists (numbers and
// names) are PCP's, for the processes alive across all the requests.
func TestInstancesMatchPCP(t *testing.T) {
	b := startBeds(t)
	pid := child(t, "sleep", "1002")
	mine := fmt.Sprintf("inst [%d or \"%06d sleep\"]", pid, pid)
	before := instances(t, b.pcp)
	ours := map[string]map[string]bool{}
	for name, p := range b.ours() {
		ours[name] = instances(t, p)
	}
	after := instances(t, b.pcp)
	stable := []string{}
	for l := range before {
		if after[l] {
			stable = append(stable, l)
		}
	}
	sort.Strings(stable)
	if len(stable) < 10 {
		t.Fatalf("PCP's agent lists %d processes", len(stable))
	}
	for name, got := range ours {
		missing := 0
		for _, l := range stable {
			if !got[l] && !renamedKernelThread(l, got) {
				t.Errorf("%s: no %s", name, l)
				missing++
			}
		}
		if !got[mine] {
			t.Errorf("%s: no %s", name, mine)
		}
		t.Logf("%s: %d of PCP's %d processes listed with PCP's names", name, len(stable)-missing, len(stable))
	}
}

// renamedKernelThread reports whether got has l's process under another
// name: a kernel worker's name follows its current work, a process that
// other work on the machine forked and then exec'd changes its name, and
// each agent keeps the name it first saw.
func renamedKernelThread(l string, got map[string]bool) bool {
	i := strings.Index(l, " or \"")
	if i < 0 {
		return false
	}
	for g := range got {
		if strings.HasPrefix(g, l[:i+len(" or \"")]) {
			return true
		}
	}
	return false
}
