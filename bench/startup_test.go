package bench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// startupCase is one short command run many times by each side: the work
// is small, so its cost is mostly the program's start-up.
type startupCase struct {
	tool string
	args []string // "{host}" and "{archive}" are filled in
	mask func(string) string
}

// startupArchive is the QA archive the archive cases read.
const startupArchive = "20041125"

var startupCases = []startupCase{
	{tool: "pminfo", args: []string{"-h", "{host}", "-f", "sample.long.one", "sample.long.ten",
		"sample.double.million", "sample.string.hullo", "sample.ulong.hundred"}},
	{tool: "pmval", args: []string{"-h", "{host}", "-s", "1", "sample.long.hundred"}, mask: clitest.Times},
	{tool: "pmprobe", args: []string{"-h", "{host}", "-v", "sample.long.one", "sample.float.ten",
		"sample.string.hullo", "sample.ulonglong.million"}},
	{tool: "pmdumplog", args: []string{"-l", "{archive}"}},
	{tool: "pmval", args: []string{"-s", "1", "-a", "{archive}", "kernel.all.load"}},
	// A local context: PCP's tool loads the agents of pmcd.conf's dso
	// lines in-process, ours starts pmdalocal (found on $PATH) for them,
	// and both processes' CPU counts (the tool waits for its companion).
	{tool: "pminfo", args: []string{"-L", "-f", "hinv.ncpu"}},
}

// startupRun is one timed run of a program.
type startupRun struct {
	wall, cpu time.Duration
}

// runStartup runs bin with args once and measures it; the output is
// returned for the comparison.
func runStartup(t *testing.T, bin string, args []string) (startupRun, string) {
	t.Helper()
	var out bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "TZ=UTC")
	cmd.Stdout = &out
	cmd.Stderr = &out
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("%s %q: %v", bin, args, err)
		}
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return startupRun{wall: wall, cpu: cpu}, out.String()
}

// startupRSS is bin's peak resident set in kB, from /usr/bin/time: the
// rusage Go's exec reports counts the test process's own pages, which
// the child shares until it execs.
func startupRSS(t *testing.T, bin string, args []string) float64 {
	t.Helper()
	res := filepath.Join(t.TempDir(), "rss")
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", res, bin}, args...)...)
	cmd.Env = append(os.Environ(), "TZ=UTC")
	_ = cmd.Run() // the exit status was checked by the comparison
	out, err := os.ReadFile(res)
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(string(out))
	if len(fields) == 0 {
		t.Fatalf("/usr/bin/time %s: no figure", bin)
	}
	kb, err := strconv.ParseFloat(fields[len(fields)-1], 64)
	if err != nil {
		t.Fatalf("/usr/bin/time %s: %v", bin, err)
	}
	return kb
}

// TestStartupSideBySide runs each of PCP's tools and ours on the same
// short command lines against one private PCP pmcd (and a QA archive), N
// times each (GOPCP_BENCH_STARTUP_RUNS, 20 by default), alternating, and
// prints the median wall time, CPU time (user + system) and peak RSS per
// run. The outputs are compared first and must be identical.
// GOPCP_BENCH_STARTUP_BIN names a directory of our tools to time instead
// of building them from this tree (to compare two builds).
func TestStartupSideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the side-by-side benchmarks")
	}
	runs := 20
	if n, err := strconv.Atoi(os.Getenv("GOPCP_BENCH_STARTUP_RUNS")); err == nil && n > 0 {
		runs = n
	}
	bed := testbed.StartPMCD(t, testbed.Options{})
	archive := clitest.QAArchive(t, startupArchive)
	ours := map[string]string{}
	for _, c := range startupCases {
		ours[c.tool] = ourCommand(t, "GOPCP_BENCH_STARTUP_BIN", c.tool)
	}
	companion := ourCommand(t, "GOPCP_BENCH_STARTUP_BIN", "pmdalocal")
	t.Setenv("PATH", filepath.Dir(companion)+string(os.PathListSeparator)+os.Getenv("PATH"))

	var table strings.Builder
	fmt.Fprintf(&table, "%d runs of each, alternating; medians per run\n", runs)
	fmt.Fprintf(&table, "| command | PCP wall ms | gopcp wall ms | PCP CPU ms | gopcp CPU ms | PCP RSS kB | gopcp RSS kB | wall PCP/gopcp | CPU PCP/gopcp |\n")
	fmt.Fprintf(&table, "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	var sumPW, sumGW, sumPC, sumGC float64
	for _, c := range startupCases {
		args := make([]string, len(c.args))
		for i, a := range c.args {
			a = strings.ReplaceAll(a, "{host}", bed.Host())
			args[i] = strings.ReplaceAll(a, "{archive}", archive)
		}
		theirs, err := bed.Install().Tool(c.tool)
		if err != nil {
			t.Fatal(err)
		}
		mask := c.mask
		if mask == nil {
			mask = func(s string) string { return s }
		}
		_, want := runStartup(t, theirs, args)
		_, got := runStartup(t, ours[c.tool], args)
		if mask(want) != mask(got) {
			t.Fatalf("%s %s: outputs differ:\n%s", c.tool, strings.Join(args, " "), clitest.Diff(mask(want), mask(got)))
		}
		var pw, gw, pc, gc, pr, gr []float64
		for range runs {
			p, _ := runStartup(t, theirs, args)
			g, _ := runStartup(t, ours[c.tool], args)
			pw, pc = append(pw, startupMS(p.wall)), append(pc, startupMS(p.cpu))
			gw, gc = append(gw, startupMS(g.wall)), append(gc, startupMS(g.cpu))
		}
		for range 3 {
			pr = append(pr, startupRSS(t, theirs, args))
			gr = append(gr, startupRSS(t, ours[c.tool], args))
		}
		mpw, mgw, mpc, mgc := median(pw), median(gw), median(pc), median(gc)
		sumPW, sumGW, sumPC, sumGC = sumPW+mpw, sumGW+mgw, sumPC+mpc, sumGC+mgc
		cmdline := c.tool + " " + strings.Join(c.args, " ")
		fmt.Fprintf(&table, "| `%s` | %.1f | %.1f | %.1f | %.1f | %.0f | %.0f | %.2f | %.2f |\n",
			cmdline, mpw, mgw, mpc, mgc, median(pr), median(gr), mpw/mgw, mpc/mgc)
	}
	fmt.Fprintf(&table, "| all of the above | %.1f | %.1f | %.1f | %.1f | | | %.2f | %.2f |\n",
		sumPW, sumGW, sumPC, sumGC, sumPW/sumGW, sumPC/sumGC)
	t.Logf("start-up side by side (above 1: gopcp faster):\n%s", table.String())
	if out := os.Getenv("GOPCP_BENCH_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(table.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func startupMS(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
