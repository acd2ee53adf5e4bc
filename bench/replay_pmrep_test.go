package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// percpuFixture is a /proc tree for PCP's Linux agent (LINUX_STATSPATH,
// with LINUX_NCPUS) of a host with many CPUs: stat, interrupts and
// softirqs, whose counters write moves on at every call.
type percpuFixture struct {
	dir        string
	ncpu       int
	interrupts int // numbered interrupt lines
}

// softirqNames are the kernel's softirq lines.
var softirqNames = []string{"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU"}

// write writes the tree for tick (counters grow with it, differently
// per CPU), each file replaced whole so the agent never reads half.
func (f *percpuFixture) write(t *testing.T, tick int) {
	var stat, intr, soft strings.Builder
	u := func(cpu, k int) int { return 1000 + tick*(3+(cpu+k)%7) + cpu*11 }
	fmt.Fprintf(&stat, "cpu  %d %d %d %d %d %d %d %d %d %d\n", u(0, 0)*f.ncpu, u(0, 1)*f.ncpu, u(0, 2)*f.ncpu,
		u(0, 3)*f.ncpu, u(0, 4), u(0, 5), u(0, 6), 0, 0, 0)
	for c := range f.ncpu {
		fmt.Fprintf(&stat, "cpu%d %d %d %d %d %d %d %d %d %d %d\n", c, u(c, 0), u(c, 1), u(c, 2), u(c, 3), u(c, 4),
			u(c, 5), u(c, 6), u(c, 7), 0, 0)
	}
	fmt.Fprintf(&stat, "intr %d\nctxt %d\nbtime 1700000000\nprocesses %d\nprocs_running 2\nprocs_blocked 0\nsoftirq %d\n",
		tick*1000, tick*5000, tick*10, tick*700)
	intr.WriteString("    ")
	for c := range f.ncpu {
		fmt.Fprintf(&intr, "       CPU%-3d", c)
	}
	intr.WriteByte('\n')
	line := func(label, tail string, k int) {
		fmt.Fprintf(&intr, "%4s:", label)
		for c := range f.ncpu {
			fmt.Fprintf(&intr, " %10d", u(c, k))
		}
		intr.WriteString(tail + "\n")
	}
	for i := range f.interrupts {
		line(strconv.Itoa(24+i), fmt.Sprintf("  PCI-MSI %d-edge      dev%d", 65536+i, i), i)
	}
	line("NMI", "   Non-maskable interrupts", 1)
	line("LOC", "   Local timer interrupts", 2)
	line("RES", "   Rescheduling interrupts", 3)
	line("CAL", "   Function call interrupts", 4)
	soft.WriteString("          ")
	for c := range f.ncpu {
		fmt.Fprintf(&soft, "      CPU%-3d", c)
	}
	soft.WriteByte('\n')
	for k, n := range softirqNames {
		fmt.Fprintf(&soft, "%12s:", n)
		for c := range f.ncpu {
			fmt.Fprintf(&soft, " %10d", u(c, k))
		}
		soft.WriteByte('\n')
	}
	for name, text := range map[string]string{"stat": stat.String(), "interrupts": intr.String(), "softirqs": soft.String()} {
		p := filepath.Join(f.dir, "proc", name)
		if err := os.WriteFile(p+".new", []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(p+".new", p); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPmrepSideBySide makes a kernel.percpu archive of a host with many
// CPUs (pcp#2530: PCP's pmrep took 2 min 13 s over 1 min of such an
// archive): PCP's Linux agent reads a fixture /proc of
// GOPCP_BENCH_PMREP_CPUS CPUs (64 by default) whose counters move at
// every tick, PCP's pmlogger logs kernel.percpu every 100 ms for
// GOPCP_BENCH_PMREP_SECONDS (60). Then PCP's pmrep -u -o csv and the
// same replay through our fetchgroup (bench/internal/pmrepfg) run over
// it, GOPCP_BENCH_ROUNDS rounds alternating: outputs compared first,
// then wall, CPU and peak RSS with their ratios.
//
//	GOPCP_BENCH=1 go test -run TestPmrepSideBySide -v -timeout 1h ./bench/
func TestPmrepSideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the side-by-side benchmarks")
	}
	pcpTool(t, "pmlogger")
	pmrep := pcpTool(t, "pmrep")
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Skip("no /usr/bin/time (Debian's time package) for peak RSS:", err)
	}
	// pmrep runs under pmpython, which runs the python3 found first on
	// PATH: PCP's modules are in the system's.
	pyPath := "PATH=/usr/bin:/bin:" + os.Getenv("PATH")
	if out, err := exec.Command("env", pyPath, pmrep, "--version").CombinedOutput(); err != nil {
		t.Skipf("pmrep does not run (python3-pcp?): %v\n%s", err, out)
	}
	ncpu, secs := 64, 60
	if n, err := strconv.Atoi(os.Getenv("GOPCP_BENCH_PMREP_CPUS")); err == nil && n > 0 {
		ncpu = n
	}
	if n, err := strconv.Atoi(os.Getenv("GOPCP_BENCH_PMREP_SECONDS")); err == nil && n > 0 {
		secs = n
	}
	fx := &percpuFixture{dir: t.TempDir(), ncpu: ncpu, interrupts: 32}
	if err := os.MkdirAll(filepath.Join(fx.dir, "proc"), 0o755); err != nil {
		t.Fatal(err)
	}
	fx.write(t, 0)
	base := makeLinuxArchive(t, replayArchiveDir(t), archiveSpec{
		name:     fmt.Sprintf("percpu-%dcpu-%ds", ncpu, secs),
		interval: "100 msec",
		roots:    []string{"kernel.percpu"},
		duration: time.Duration(secs) * time.Second,
		env:      []string{"LINUX_STATSPATH=" + fx.dir, "LINUX_NCPUS=" + strconv.Itoa(ncpu), "LINUX_NNODES=1"},
		during:   func(tick int) { fx.write(t, tick+1) },
	})
	ours := pcptest.GoCommand(t, "./internal/pmrepfg")
	c := replayCase{label: "pmrep -u -o csv kernel.percpu", pcp: pmrep, ours: ours,
		args: []string{"-a", base, "kernel.percpu"}, env: []string{pyPath}}
	// pmrep takes its options before the names; ours only -a.
	pcpArgs := []string{"-u", "-o", "csv", "-a", base, "kernel.percpu"}
	res := runPmrep(t, benchRounds(), c, pcpArgs)
	t.Logf("archive %s (%d CPUs, %s data volume, %d records), %d rounds, medians:\n%s",
		filepath.Base(base), ncpu, mibOf(base+".0"), res.lines-1, benchRounds(), replayTable([]replayResult{res}))
}

// runPmrep is runSideBySide for one case whose two programs take
// different arguments.
func runPmrep(t *testing.T, rounds int, c replayCase, pcpArgs []string) replayResult {
	var pr, or []toolRun
	for range rounds {
		pr = append(pr, timeTool(t, c.pcp, c.env, pcpArgs...))
		or = append(or, timeTool(t, c.ours, c.env, c.args...))
	}
	r := replayResult{c: c, pcp: medianRuns(pr), ours: medianRuns(or), pcpRuns: pr, ourRuns: or, lines: pr[0].lines}
	r.outputsIdentical = pr[0].sum == or[0].sum
	if !r.outputsIdentical {
		t.Errorf("outputs differ: PCP %d lines (stderr %q), ours %d lines (stderr %q); first lines:\nPCP:  %.300q\nours: %.300q",
			pr[0].lines, firstLine(pr[0].errText), or[0].lines, firstLine(or[0].errText), pr[0].head, or[0].head)
	}
	return r
}
