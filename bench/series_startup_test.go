package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/redistest"
)

// TestSeriesStartupSideBySide is TestStartupSideBySide for pmseries:
// PCP's and ours ask one private redis-server, loaded by PCP's pmseries
// --load of QA archive sample-labels, a query with values and --help,
// N times each (GOPCP_BENCH_STARTUP_RUNS, 20 by default), alternating;
// outputs compared first. GOPCP_BENCH_STARTUP_BIN names a directory
// holding a prebuilt pmseries to time instead of this tree's.
//
//	GOPCP_BENCH=1 go test -run TestSeriesStartupSideBySide -v ./bench/
func TestSeriesStartupSideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("GOPCP_BENCH=1 runs the side-by-side benchmarks")
	}
	runs := 20
	if n, err := strconv.Atoi(os.Getenv("GOPCP_BENCH_STARTUP_RUNS")); err == nil && n > 0 {
		runs = n
	}
	theirs := pcptest.NeedTool(t, "pmseries")
	srv := redistest.Start(t)
	dir := t.TempDir()
	conf := filepath.Join(dir, "pmseries.conf")
	if err := os.WriteFile(conf, []byte("[pmseries]\nenabled = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(srv.Port)
	if out, err := exec.Command(theirs, "-c", conf, "-p", port, "--load", clitest.QAArchive(t, "sample-labels")).CombinedOutput(); err != nil {
		t.Fatalf("PCP's pmseries --load: %v\n%s", err, out)
	}
	ours := ourCommand(t, "GOPCP_BENCH_STARTUP_BIN", "pmseries")
	var table strings.Builder
	fmt.Fprintf(&table, "%d runs of each, alternating; medians per run\n", runs)
	fmt.Fprintf(&table, "| command | PCP wall ms | gopcp wall ms | PCP CPU ms | gopcp CPU ms | PCP RSS kB | gopcp RSS kB | wall PCP/gopcp | CPU PCP/gopcp |\n")
	fmt.Fprintf(&table, "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, args := range [][]string{
		{"-c", conf, "-p", port, "sample.colour[samples:2]"},
		{"--help"},
	} {
		_, want := runStartup(t, theirs, args)
		_, got := runStartup(t, ours, args)
		if want != got {
			t.Fatalf("pmseries %s: outputs differ:\n%s", strings.Join(args, " "), clitest.Diff(want, got))
		}
		var pw, gw, pc, gc, pr, gr []float64
		for range runs {
			p, _ := runStartup(t, theirs, args)
			g, _ := runStartup(t, ours, args)
			pw, pc = append(pw, startupMS(p.wall)), append(pc, startupMS(p.cpu))
			gw, gc = append(gw, startupMS(g.wall)), append(gc, startupMS(g.cpu))
		}
		for range 3 {
			pr = append(pr, startupRSS(t, theirs, args))
			gr = append(gr, startupRSS(t, ours, args))
		}
		mpw, mgw, mpc, mgc := median(pw), median(gw), median(pc), median(gc)
		cmdline := "pmseries " + strings.Join(args[len(args)-1:], " ")
		fmt.Fprintf(&table, "| `%s` | %.1f | %.1f | %.2f | %.2f | %.0f | %.0f | %.2f | %.2f |\n",
			cmdline, mpw, mgw, mpc, mgc, median(pr), median(gr), mpw/mgw, mpc/mgc)
	}
	t.Logf("pmseries start-up side by side (above 1: gopcp faster):\n%s", table.String())
	if out := os.Getenv("GOPCP_BENCH_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(table.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
