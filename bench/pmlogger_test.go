package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// loggerMetrics picks n metrics that have values now from pmcd, sample
// and linux, in namespace order.
func loggerMetrics(t *testing.T, p *testbed.PMCD, n int) []string {
	t.Helper()
	ctx := context.Background()
	c, err := pmapi.NewHostContext(ctx, p.Host())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var out []string
	for _, root := range []string{"pmcd", "sample", "kernel", "mem", "network", "disk", "hinv", "filesys", "swap", "proc", "vfs", "ipc"} {
		names, err := c.Traverse(ctx, root)
		if err != nil {
			continue
		}
		for _, name := range names {
			if len(out) == n {
				return out
			}
			// skip the sample agent's metrics that misbehave on purpose
			if strings.Contains(name, "bad") || strings.Contains(name, "dodgey") || strings.Contains(name, "dynamic") ||
				strings.Contains(name, "event") || strings.Contains(name, "sample.long.write_me") || strings.Contains(name, "ghosts") {
				continue
			}
			pmid, err := c.LookupName(ctx, name)
			if err != nil {
				continue
			}
			var r pcp.Result
			if _, err := c.Fetch(ctx, []pcp.PMID{pmid}, &r); err != nil || len(r.Sets) != 1 || r.Sets[0].NumVal <= 0 {
				continue
			}
			out = append(out, name)
		}
	}
	if len(out) < n {
		t.Fatalf("only %d metrics with values", len(out))
	}
	return out
}

// cpuOf runs cmd to completion and returns its user+system CPU time.
func cpuOf(t *testing.T, cmd *exec.Cmd) time.Duration {
	t.Helper()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", cmd.Path, err, out)
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// TestPMLoggerSideBySide logs the same 500 metrics (pmcd, sample and
// linux agents of a private PCP pmcd) every 100 milliseconds for a fixed
// number of samples with PCP's pmlogger and with ours, one after the
// other against the same pmcd, ROUNDS times each, and reports the CPU
// each spent per logged sample and the ratio.
//
//	GOPCP_BENCH=1 go test -run TestPMLoggerSideBySide -v ./bench/
func TestPMLoggerSideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("set GOPCP_BENCH=1 to run the side-by-side benchmarks")
	}
	rounds := 3
	if n, err := strconv.Atoi(os.Getenv("GOPCP_BENCH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	samples := 100
	p := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), testbed.SampleAgent(), testbed.LinuxAgent()}})
	metrics := loggerMetrics(t, p, 500)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	text := "log mandatory on 100 msec {\n\t" + strings.Join(metrics, "\n\t") + "\n}\n"
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ours := pcptest.GoCommand(t, "../cmd/pmlogger")
	// Each side runs for a short and a long count of samples: the
	// difference is the CPU of the samples alone, start-up (resolving
	// 500 names, descriptors, labels and help text) and the epilogue
	// left out; the short run's CPU is reported as start-up.
	const short = 10
	var pcpCPU, goCPU, pcpStart, goStart []time.Duration
	var pcpSize, goSize int64
	// Both loggers search upwards for a control port from this one, a
	// private port reserved to the test's end (one at a time runs, each
	// to completion); the fixed ports of the kernel's ephemeral range
	// used before could be held by any program on the machine.
	ctlPort, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	for r := 0; r < rounds; r++ {
		for k, side := range []string{"pcp", "go", "pcp", "go"} {
			n := short
			if k >= 2 {
				n = short + samples
			}
			base := filepath.Join(dir, fmt.Sprintf("%s%d-%d", side, r, n))
			args := []string{"-h", p.Host(), "-c", cfg, "-l", base + ".log", "-s", strconv.Itoa(n), "-V", "3", base}
			var cmd *exec.Cmd
			if side == "pcp" {
				c, err := p.Command(context.Background(), "pmlogger", args...)
				if err != nil {
					t.Fatal(err)
				}
				cmd = c
			} else {
				// the bed's environment too: its PCP_TMP_DIR takes the
				// port map, never the system's
				cmd = exec.Command(ours, args...)
				cmd.Env = p.Env()
			}
			cmd.Env = append(cmd.Env, "PMLOGGER_PORT="+strconv.Itoa(ctlPort))
			cpu := cpuOf(t, cmd)
			st, _ := os.Stat(base + ".0")
			switch {
			case side == "pcp" && k < 2:
				pcpStart = append(pcpStart, cpu)
			case side == "go" && k < 2:
				goStart = append(goStart, cpu)
			case side == "pcp":
				pcpCPU = append(pcpCPU, cpu-pcpStart[len(pcpStart)-1])
				pcpSize = st.Size()
			default:
				goCPU = append(goCPU, cpu-goStart[len(goStart)-1])
				goSize = st.Size()
			}
		}
	}
	med := func(d []time.Duration) time.Duration {
		s := append([]time.Duration(nil), d...)
		for i := range s {
			for j := i + 1; j < len(s); j++ {
				if s[j] < s[i] {
					s[i], s[j] = s[j], s[i]
				}
			}
		}
		return s[len(s)/2]
	}
	pc, gc := med(pcpCPU), med(goCPU)
	ps, gs := med(pcpStart), med(goStart)
	t.Logf("%d metrics every 100 ms, %d rounds (medians): CPU per logged sample PCP's pmlogger %.0f µs, ours %.0f µs, PCP/ours %.2f; start-up and %d samples PCP %v, ours %v; data volume after %d samples PCP %d bytes, ours %d",
		len(metrics), rounds, float64(pc.Microseconds())/float64(samples), float64(gc.Microseconds())/float64(samples), float64(pc)/float64(gc),
		short, ps, gs, short+samples, pcpSize, goSize)
}
