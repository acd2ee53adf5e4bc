package cgroup

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
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
	if os.Getenv(nsEnv) != "1" {
		testbed.Need(t)
		if os.Geteuid() != 0 {
			t.Skip("turning process accounting on needs root (CAP_SYS_PACCT)")
		}
		unshare, err := exec.LookPath("unshare")
		if err != nil {
			t.Skip("no unshare(1) to make a PID namespace")
		}
		pmcd, err := testbed.GoPMCDPath()
		if err != nil {
			t.Fatal(err)
		}
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(unshare, "--pid", "--fork", "--mount-proc", exe,
			"-test.run=^TestAcctValuesMatchPCP$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), nsEnv+"=1", testbed.GoPMCDEnv+"="+pmcd)
		out, err := cmd.CombinedOutput()
		t.Logf("in a new PID namespace:\n%s", out)
		if err != nil || !strings.Contains(string(out), "--- PASS: TestAcctValuesMatchPCP") {
			t.Fatalf("the run in a new PID namespace failed: %v", err)
		}
		return
	}
	theirs := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), pcpProc()}})
	unixOf := func(p *testbed.PMCD) string { return "unix:" + p.SocketPath() }
	if out := pmstoreOut(t, theirs, unixOf(theirs), "acct.control.enable_acct", "1"); !strings.Contains(out, "new value=1") {
		t.Fatalf("PCP's pmdaproc did not take enable_acct: %s", out)
	}
	t.Cleanup(func() { pmstoreOut(t, theirs, unixOf(theirs), "acct.control.enable_acct", "0") })
	varDir := ""
	for _, e := range theirs.Env() {
		if v, ok := strings.CutPrefix(e, "PCP_VAR_DIR="); ok {
			varDir = v
		}
	}
	private := varDir + "/pmcd/pacct"
	if _, err := os.Stat(private); err != nil {
		t.Fatalf("PCP's private accounting file: %v", err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ours := testbed.StartGoPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(),
		testbed.PipeAgent("proc", Domain, "$PCP_PMDAS_DIR/proc/root_proc", "/usr/bin/env",
			agentEnv+"=1", pacctEnv+"="+private, exe, "-d", "3")}})
	pminfoAt(t, ours, unixOf(ours), "-f", "acct") // our agent opens the file now
	for _, c := range [][]string{{"sh", "-c", "exit 3"}, {"true"}, {"false"}, {"sh", "-c", "kill -9 $$"}} {
		exec.Command(c[0], c[1:]...).Run()
	}
	// Ours is read first, then PCP's: the pminfo that reads ours and the
	// process our agent's accounting check runs end before PCP's read, so
	// every process ours lists PCP's lists too. PCP's agent opened the
	// file earlier and lists processes from before our open as well.
	got := acctValues(pminfoAt(t, ours, unixOf(ours), "-f", "acct.psinfo", "acct.id", "acct.flag"))
	want := acctValues(pminfoAt(t, theirs, unixOf(theirs), "-f", "acct.psinfo", "acct.id", "acct.flag"))
	compared, comms := 0, map[string]bool{}
	for key, v := range got {
		w, ok := want[key]
		if !ok {
			t.Errorf("%s: ours %s, PCP none", key, v)
			continue
		}
		if w != v {
			t.Errorf("%s: ours %s, PCP %s", key, v, w)
		}
		compared++
		if strings.HasPrefix(key, "acct.psinfo.pid ") {
			comms[key[strings.Index(key, `"`):]] = true
		}
	}
	for _, c := range []string{`"sh"`, `"true"`, `"false"`} {
		if !comms[c] {
			t.Errorf("no process %s among ours: %v", c, comms)
		}
	}
	t.Logf("%d acct values of %d processes equal to PCP's", compared, compared/23)
	var a, b []string
	for key := range want {
		if strings.HasPrefix(key, "acct.psinfo.pid ") {
			a = append(a, key[16:])
		}
	}
	for key := range got {
		if strings.HasPrefix(key, "acct.psinfo.pid ") {
			b = append(b, key[16:])
		}
	}
	slices.Sort(a)
	slices.Sort(b)
	t.Logf("PCP: %v\nours: %v", a, b)
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
