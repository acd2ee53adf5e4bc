package bench

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// scalingArchives are QA archives of growing size, single volume and
// uncompressed, so that size on disk is the work of a replay.
var scalingArchives = []string{"omnibus_v3", "20041125", "pcp-pidstat", "naslog", "bigace_v2",
	"chartqa1", "20180415.09.16", "20180127.08.40", "20180102"}

// archiveBytes is the size of an archive's volumes, index and metadata.
func archiveBytes(t *testing.T, base string) int64 {
	files, err := filepath.Glob(base + ".*")
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no files (%v)", base, err)
	}
	var n int64
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		n += fi.Size()
	}
	return n
}

// replayRun runs bin args once with output into a counter: wall time,
// user + system CPU and output lines.
func replayRun(t *testing.T, bin string, args ...string) (wall, cpu time.Duration, lines int) {
	var out bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "TZ=UTC")
	cmd.Stdout = &out
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %q: %v", bin, args, err)
	}
	wall = time.Since(t0)
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return wall, time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), bytes.Count(out.Bytes(), []byte{'\n'})
}

// TestScalingReplay times PCP's pmdumplog -a and ours over QA archives of
// growing size, GOPCP_BENCH_ROUNDS rounds (3 by default) alternating,
// medians to testdata/scaling/replay.csv (GOPCP_BENCH=1).
func TestScalingReplay(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the side-by-side benchmarks")
	}
	pcpBin, err := exec.LookPath("pmdumplog")
	if err != nil {
		t.Skip("no PCP pmdumplog:", err)
	}
	ours := pcptest.GoCommand(t, "../cmd/pmdumplog")
	rounds := benchRounds()
	tab := &csvTable{name: "replay.csv"}
	tab.add("archive", "bytes", "impl", "lines", "wall_s", "cpu_s", "load1")
	for _, name := range scalingArchives {
		base := filepath.Join("/var/lib/pcp/testsuite/archives", name)
		size := archiveBytes(t, base)
		var wall, cpu [2][]float64
		var lines [2]int
		for range rounds {
			for i, bin := range []string{pcpBin, ours} {
				w, c, l := replayRun(t, bin, "-a", base)
				wall[i] = append(wall[i], w.Seconds())
				cpu[i] = append(cpu[i], c.Seconds())
				lines[i] = l
			}
		}
		if lines[0] != lines[1] {
			t.Errorf("%s: PCP's pmdumplog -a wrote %d lines, ours %d", name, lines[0], lines[1])
		}
		for i := range impls {
			tab.add(name, size, impls[i], lines[i], median(wall[i]), median(cpu[i]), loadAvg())
		}
	}
	tab.write(t)
}

// benchRounds is GOPCP_BENCH_ROUNDS, 3 by default.
func benchRounds() int {
	if n, err := strconv.Atoi(strings.TrimSpace(os.Getenv("GOPCP_BENCH_ROUNDS"))); err == nil && n > 0 {
		return n
	}
	return 3
}
