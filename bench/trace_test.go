package bench

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/trace"
)

// TestTraceSideBySide times a trace point sent from Go (package trace)
// against one sent by libpcp_trace from C, in both protocols, to the same
// agent (our pmdatrace, a process of its own) in one run: wall nanoseconds per call,
// the median of GOPCP_BENCH_ROUNDS rounds, and libpcp_trace's time over
// ours. A synchronous point waits for the agent's acknowledgement, so it
// measures the round trip; an asynchronous one measures the send.
func TestTraceSideBySide(t *testing.T) {
	if os.Getenv("GOPCP_BENCH") != "1" {
		t.Skip("set GOPCP_BENCH=1 to run the side-by-side benchmarks")
	}
	if _, err := os.Stat("/usr/include/pcp/trace.h"); err != nil {
		pcptest.Missing(t, "libpcp-trace2-dev is not installed")
	}
	rounds := 5
	if s := os.Getenv("GOPCP_BENCH_ROUNDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("GOPCP_BENCH_ROUNDS=%q", s)
		}
		rounds = n
	}
	bin := pcptest.HarnessWith(t, "testdata/harness/trace_point.c", "-O2", "-Wl,--no-as-needed", "-lpcp_trace")
	port := startTraceAgent(t)

	modes := []struct {
		name string
		n    int
	}{{"sync", 20000}, {"async", 200000}}
	cFig := make([][]float64, len(modes))
	goFig := make([][]float64, len(modes))
	for round := range rounds {
		for i, m := range modes {
			cmd := exec.Command(bin, m.name, strconv.Itoa(m.n))
			cmd.Env = append(os.Environ(), "PCP_TRACE_HOST=127.0.0.1", "PCP_TRACE_PORT="+strconv.Itoa(port))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("trace_point %s: %v\n%s", m.name, err, out)
			}
			ns, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
			if err != nil {
				t.Fatalf("trace_point: %q", out)
			}
			cFig[i] = append(cFig[i], ns)
			gns := goPoints(t, port, m.name == "async", m.n)
			goFig[i] = append(goFig[i], gns)
			t.Logf("round %d %s: libpcp_trace %.0f ns, gopcp %.0f ns", round+1, m.name, ns, gns)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s %s/%s, %d CPUs, median of %d rounds, wall time per pmtracepoint\n\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), rounds)
	b.WriteString("| protocol | libpcp_trace ns/op | gopcp ns/op | libpcp_trace ÷ gopcp |\n|---|---:|---:|---:|\n")
	for i, m := range modes {
		c, g := median(cFig[i]), median(goFig[i])
		fmt.Fprintf(&b, "| %s | %s | %s | %.2f |\n", m.name, num(c), num(g), c/g)
	}
	t.Log(b.String())
	if p := os.Getenv("GOPCP_BENCH_OUT"); p != "" {
		if err := os.WriteFile(p, []byte(b.String()+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// startTraceAgent runs our pmdatrace as a process of its own, as both
// clients' agent (in this process it would share the Go client's
// scheduler), its pmcd channel a pipe held open, and returns its port.
func startTraceAgent(t *testing.T) int {
	t.Helper()
	agent := pcptest.GoCommand(t, "../cmd/pmdatrace")
	dir := t.TempDir()
	// A private port held until the agent is gone (the release runs
	// after the cleanup below that kills it), not a ":0" port closed
	// again, which another program may take before the agent binds it.
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(agent, "-I", strconv.Itoa(port), "-l", filepath.Join(dir, "trace.log"))
	cmd.Stdin = pr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	t.Cleanup(func() { pw.Close(); cmd.Process.Kill(); cmd.Wait() })
	for i := 0; i < 200; i++ {
		if c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port)); err == nil {
			c.Close()
			return port
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("our pmdatrace never listened")
	return 0
}

// goPoints times n points from a Client, the connecting first one apart.
func goPoints(t *testing.T, port int, async bool, n int) float64 {
	c, err := trace.New(trace.Options{Host: "127.0.0.1", Port: port, Async: async})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if err := c.Point(ctx, "bench"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for range n {
		if err := c.Point(ctx, "bench"); err != nil {
			t.Fatal(err)
		}
	}
	return float64(time.Since(start).Nanoseconds()) / float64(n)
}
