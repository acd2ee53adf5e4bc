package cgroup

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// nsEnv marks the test binary run again inside its own PID namespace.
const nsEnv = "GOPCP_CGROUP_TEST_PIDNS"

// TestAcctValuesMatchPCP compares acct.* values with PCP's pmdaproc on
// records the kernel writes. Process accounting belongs to a PID
// namespace, so the test runs itself again in a new one (unshare(1), as
// root): PCP's pmdaproc turns accounting on there (acct.control.enable_acct)
// into its private file, which the host's other processes never reach; our
// agent reads that file as its system file; processes the test starts
// must then read the same from both.
func TestAcctValuesMatchPCP(t *testing.T) {
	mode := os.Getenv(nsEnv)
	if mode == "" {
		testbed.Need(t)
		if os.Geteuid() != 0 {
			t.Skip("turning process accounting on needs root (CAP_SYS_PACCT)")
		}
		unshare, err := exec.LookPath("unshare")
		if err != nil {
			t.Skip("no unshare(1) to make a PID namespace")
		}
		// A container may forbid new namespaces (no CAP_SYS_ADMIN, seccomp):
		// that is the machine's rule, not a fault of either agent.
		if out, err := exec.Command(unshare, "--pid", "--fork", "--mount-proc", "true").CombinedOutput(); err != nil {
			t.Skipf("this machine allows no new PID namespace: %v: %s", err, out)
		}
		pmcd, err := testbed.GoPMCDPath()
		if err != nil {
			t.Fatal(err)
		}
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		// Once with PCP's agent turning accounting on, once with ours,
		// each in a namespace of its own (one accounting file each).
		for _, enabler := range []string{"pcp", "ours"} {
			cmd := exec.Command(unshare, "--pid", "--fork", "--mount-proc", exe,
				"-test.run=^TestAcctValuesMatchPCP$", "-test.count=1", "-test.v")
			cmd.Env = append(os.Environ(), nsEnv+"="+enabler, testbed.GoPMCDEnv+"="+pmcd)
			out, err := cmd.CombinedOutput()
			t.Logf("in a new PID namespace, accounting turned on by %s:\n%s", enabler, out)
			if err != nil || !strings.Contains(string(out), "--- PASS: TestAcctValuesMatchPCP") {
				t.Errorf("the run in a new PID namespace failed: %v", err)
			}
		}
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	unixOf := func(p *testbed.PMCD) string { return "unix:" + p.SocketPath() }
	privateOf := func(p *testbed.PMCD) string {
		for _, e := range p.Env() {
			if v, ok := strings.CutPrefix(e, "PCP_VAR_DIR="); ok {
				return v + "/pmcd/pacct"
			}
		}
		t.Fatal("no PCP_VAR_DIR")
		return ""
	}
	enable := func(p *testbed.PMCD) {
		roomForAccounting(t, filepath.Dir(privateOf(p)))
		if out := pmstoreOut(t, p, unixOf(p), "acct.control.enable_acct", "1"); !strings.Contains(out, "new value=1") {
			t.Fatalf("enable_acct not taken: %s", out)
		}
		t.Cleanup(func() { pmstoreOut(t, p, unixOf(p), "acct.control.enable_acct", "0") })
		if _, err := os.Stat(privateOf(p)); err != nil {
			t.Fatalf("private accounting file: %v", err)
		}
	}
	ourAgent := func(pacct string) testbed.Agent {
		return testbed.PipeAgent("proc", Domain, "$PCP_PMDAS_DIR/proc/root_proc", "/usr/bin/env",
			agentEnv+"=1", pacctEnv+"="+pacct, exe, "-d", "3")
	}
	var theirs, ours *testbed.PMCD
	if mode == "pcp" {
		theirs = testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), pcpProc()}})
		enable(theirs)
		ours = testbed.StartGoPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), ourAgent(privateOf(theirs))}})
		pminfoAt(t, ours, unixOf(ours), "-f", "acct") // our agent opens the file now
	} else {
		ours = testbed.StartGoPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), ourAgent("")}})
		enable(ours)
		theirs = testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(),
			testbed.PipeAgent("proc", Domain, "$PCP_PMDAS_DIR/proc/root_proc", "/usr/bin/env",
				"PCP_PACCT_SYSTEM_PATH="+privateOf(ours), "$PCP_PMDAS_DIR/proc/pmdaproc", "-d", "3")}})
		pminfoAt(t, theirs, unixOf(theirs), "-f", "acct") // PCP's agent has opened it at start
	}
	for _, c := range [][]string{{"sh", "-c", "exit 3"}, {"true"}, {"false"}, {"sh", "-c", "kill -9 $$"}} {
		exec.Command(c[0], c[1:]...).Run()
	}
	// The later of the two agents to open the file is read first: every
	// process it lists ended after both opened it, and the pminfo that
	// reads it ends before the other's read, so the other lists it too.
	first, second := ours, theirs
	if mode == "ours" {
		first, second = theirs, ours
	}
	early := acctValues(pminfoAt(t, first, unixOf(first), "-f", "acct.psinfo", "acct.id", "acct.flag"))
	late := acctValues(pminfoAt(t, second, unixOf(second), "-f", "acct.psinfo", "acct.id", "acct.flag"))
	compared, comms := 0, map[string]bool{}
	for key, v := range early {
		w, ok := late[key]
		if !ok {
			t.Errorf("%s: %s from one agent, none from the other", key, v)
			continue
		}
		if w != v {
			t.Errorf("%s: %s from one agent, %s from the other", key, v, w)
		}
		compared++
		if strings.HasPrefix(key, "acct.psinfo.pid ") {
			comms[key[strings.Index(key, `"`):]] = true
		}
	}
	for _, c := range []string{`"sh"`, `"true"`, `"false"`} {
		if !comms[c] {
			t.Errorf("no process %s: %v", c, comms)
		}
	}
	t.Logf("%d acct values of %d processes equal to PCP's", compared, compared/23)
}

// roomForAccounting mounts a small tmpfs on dir, the directory that will
// hold the private accounting file, within the test's own mount
// namespace (unshare --mount-proc made it, private to this run). Why:
// the kernel writes no accounting records while the file's file system
// has less free space than kernel.acct's resume threshold (4% by
// default; it starts paused and resumes only above it), so on a nearly
// full disk neither agent would list a process and the comparison
// would fail for the machine's sake. dir must still be empty.
func roomForAccounting(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if ents, err := os.ReadDir(dir); err != nil || len(ents) != 0 {
		t.Fatalf("%s is not an empty directory to mount on: %v %v", dir, ents, err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV, "size=16m,mode=0755"); err != nil {
		t.Fatalf("tmpfs on %s for the accounting file: %v", dir, err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
}

var acctLine = regexp.MustCompile(`^\s+inst \[(\d+) or ("[^"]*")\] value (.*)$`)

// acctValues maps "metric [inst name]" to its value in pminfo -f output.
func acctValues(out string) map[string]string {
	m := map[string]string{}
	metric := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "acct.") {
			metric = strings.TrimSpace(l)
			continue
		}
		if s := acctLine.FindStringSubmatch(l); s != nil {
			m[metric+" "+s[1]+" "+s[2]] = s[3]
		}
	}
	return m
}
