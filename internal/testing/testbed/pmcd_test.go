package testbed

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// valueOf extracts the single value pminfo -f prints for a metric.
func valueOf(t *testing.T, out, metric string) string {
	t.Helper()
	re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(metric) + `\n\s+value (.*)$`)
	m := re.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no value for %s in pminfo output:\n%s", metric, out)
	}
	return m[1]
}

// promisedOne reads the constant the sample PMDA's help text promises for
// sample.long.one, so the expected value comes from PCP, not from us. It
// also proves the bed built the agent's help text.
func promisedOne(t *testing.T, p *PMCD) string {
	t.Helper()
	help := p.Run("pminfo", "-h", p.Host(), "-T", "sample.long.one")
	if help.Err != nil {
		t.Fatal(help.Err)
	}
	m := regexp.MustCompile(`constant value (\d+)`).FindStringSubmatch(help.Stdout)
	if m == nil {
		t.Fatalf("help text promises no constant:\n%s", help.Stdout)
	}
	return m[1]
}

func TestStartPMCD(t *testing.T) {
	t.Parallel()
	p := StartPMCD(t, Options{})

	// The version pmcd reports must be the one pmconfig reports for the
	// installed library: both come from the same PCP build.
	cfg := p.Run("pmconfig", "-L", "pcp_version")
	if cfg.Err != nil {
		t.Fatal(cfg.Err)
	}
	want := strings.TrimPrefix(strings.TrimSpace(cfg.Stdout), "pcp_version=")

	res := p.Run("pminfo", "-h", p.Host(), "-f", "pmcd.version", "sample.long.one")
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if got := valueOf(t, res.Stdout, "pmcd.version"); got != `"`+want+`"` {
		t.Errorf("pmcd.version = %s, pmconfig says %q", got, want)
	}
	if got, want := valueOf(t, res.Stdout, "sample.long.one"), promisedOne(t, p); got != want {
		t.Errorf("sample.long.one = %s, help text promises %s", got, want)
	}
}

// TestDefaultHostReachesBed checks that a tool run without -h talks to the
// private pmcd (through PMCD_SOCKET or PMCD_PORT), never a system one.
func TestDefaultHostReachesBed(t *testing.T) {
	t.Parallel()
	p := StartPMCD(t, Options{})
	res := p.Run("pminfo", "-f", "pmcd.pid")
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if got, want := valueOf(t, res.Stdout, "pmcd.pid"), itoa(p.PID()); got != want {
		t.Errorf("pmcd.pid = %s, want the bed's pmcd %s", got, want)
	}
}

func TestParallelBeds(t *testing.T) {
	t.Parallel()
	a := StartPMCD(t, Options{})
	b := StartPMCD(t, Options{Agents: []Agent{PMCDAgent()}})
	if a.Port() == b.Port() || a.Dir() == b.Dir() {
		t.Fatalf("beds share port %d/%d or dir %s/%s", a.Port(), b.Port(), a.Dir(), b.Dir())
	}
	// b has no sample agent, so its namespace must not know sample.
	if res := b.Run("pminfo", "-h", b.Host(), "sample.long.one"); res.Err == nil {
		t.Errorf("bed without sample agent knows sample.long.one:\n%s", res.Stdout)
	}
	if res := a.Run("pminfo", "-h", a.Host(), "sample.long.one"); res.Err != nil {
		t.Error(res.Err)
	}
}

func TestSocketAgent(t *testing.T) {
	t.Parallel()
	p := StartPMCD(t, Options{Agents: []Agent{PMCDAgent(), SampleSocketAgent()}})
	if p.AgentPort("sample") == 0 {
		t.Fatal("socket agent has no port")
	}
	res := p.Run("pminfo", "-h", p.Host(), "-f", "sample.long.one")
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if got, want := valueOf(t, res.Stdout, "sample.long.one"), promisedOne(t, p); got != want {
		t.Errorf("sample.long.one = %s, help text promises %s", got, want)
	}
}

// TestAccessDeniesStore checks that Options.Access reaches pmcd.conf: a
// store refused by [access] fails where the same store is otherwise fine.
func TestAccessDeniesStore(t *testing.T) {
	t.Parallel()
	open := StartPMCD(t, Options{})
	if res := open.Run("pmstore", "-h", open.Host(), "sample.write_me", "3"); res.Err != nil {
		t.Fatalf("store on an open pmcd: %v", res.Err)
	}
	closed := StartPMCD(t, Options{Access: `disallow ".*" : store;` + "\n" + `disallow ":*" : store;`})
	res := closed.Run("pmstore", "-h", closed.Host(), "sample.write_me", "3")
	if res.Err == nil {
		t.Fatalf("store allowed despite [access]:\n%s", res.Stdout)
	}
	// The refusal must be PM_ERR_PERMISSION, in the words PCP uses for it.
	// pmerr -l exits with status 1 after listing, so only its output counts.
	errs := closed.Run("pmerr", "-l")
	m := regexp.MustCompile(`(?m)\sPM_ERR_PERMISSION\s+(.+)$`).FindStringSubmatch(errs.Stdout)
	if m == nil {
		t.Fatalf("pmerr -l does not list PM_ERR_PERMISSION:\n%s", errs.Stdout)
	}
	if !strings.Contains(res.Stderr+res.Stdout, m[1]) {
		t.Errorf("store refused, but not with %q:\n%s%s", m[1], res.Stdout, res.Stderr)
	}
}

func TestLinuxAgent(t *testing.T) {
	t.Parallel()
	p := StartPMCD(t, Options{Agents: []Agent{PMCDAgent(), LinuxAgent()}})
	res := p.Run("pminfo", "-h", p.Host(), "-f", "hinv.ncpu")
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if n := valueOf(t, res.Stdout, "hinv.ncpu"); n == "" || n == "0" {
		t.Errorf("hinv.ncpu = %q, want a CPU count", n)
	}
}

// TestAgentsStayInBed: the sample agent of a bed runs as a child of the
// bed's pmcd and logs into the bed, even when the system's pmcd runs with
// its pmdaroot, which PCP's pmcd would otherwise ask to start the agent.
func TestAgentsStayInBed(t *testing.T) {
	t.Parallel()
	p := StartPMCD(t, Options{})
	// The agent's command line names its log in the bed, wherever it runs.
	pids := processesNaming(t, filepath.Join(p.Dir(), "log", "sample.log"))
	if len(pids) != 1 {
		t.Fatalf("%d processes name the bed's sample.log, want 1", len(pids))
	}
	if ppid := parentOf(t, pids[0]); ppid != p.PID() {
		t.Errorf("sample agent %d has parent %d, want the bed's pmcd %d", pids[0], ppid, p.PID())
	}
	if _, err := os.Stat(filepath.Join(p.Dir(), "log", "sample.log")); err != nil {
		t.Errorf("sample agent's log is not in the bed: %v", err)
	}
}

// processesNaming lists the processes whose command line contains word.
func processesNaming(t *testing.T, word string) []int {
	t.Helper()
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, d := range dirs {
		cmd, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil || !strings.Contains(string(cmd), word) {
			continue
		}
		pid, err := strconv.Atoi(filepath.Base(d))
		if err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// parentOf reads a process's parent pid from /proc.
func parentOf(t *testing.T, pid int) int {
	t.Helper()
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	// The parent pid is the second field after the ")" ending the name.
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	if len(f) < 2 {
		t.Fatalf("short /proc/%d/stat: %s", pid, stat)
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		t.Fatal(err)
	}
	return ppid
}
