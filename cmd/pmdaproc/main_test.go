package main

import (
	"os"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }

// TestOptionsAsPCP runs this daemon and PCP's pmdaproc under PCP's pmcd
// with the same options and compares what a TCP client sees: with -A
// the per-process values PCP's agent otherwise refuses, with -L the
// threads too (pmdaproc's own option letters).
func TestOptionsAsPCP(t *testing.T) {
	testbed.Need(t)
	bin := pcptest.GoCommand(t, ".")
	const root = "$PCP_VAR_DIR/pmns/root_proc"
	for _, opts := range [][]string{{"-A"}, {"-A", "-L"}, {}} {
		bed := func(argv ...string) *testbed.PMCD {
			return testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(),
				testbed.PipeAgent("proc", 3, root, append(append(argv, "-d", "3"), opts...)...)}})
		}
		theirs, ours := bed("$PCP_PMDAS_DIR/proc/pmdaproc"), bed(bin)
		// pid 1 and the control metrics do not change between the runs.
		args := []string{"-f", "proc.control.all.threads", "proc.psinfo.ppid"}
		w, g := theirs.Run("pminfo", append([]string{"-h", theirs.Host()}, args...)...), ours.Run("pminfo", append([]string{"-h", ours.Host()}, args...)...)
		first := func(s string) string {
			// The control metric and pid 1's line (PCP lists the
			// processes in its hash table's order).
			var keep []string
			for _, l := range strings.Split(s, "\n") {
				if strings.Contains(l, "pmNameIndom") {
					continue // a thread gone before it was named
				}
				if !strings.Contains(l, "inst [") || strings.Contains(l, "inst [1 or ") {
					keep = append(keep, l)
				}
			}
			return strings.Join(keep, "\n")
		}
		// (Standard error is not compared: with threads, pminfo
		// reports those that end between the fetch and their naming,
		// on either.)
		if first(w.Stdout) != first(g.Stdout) {
			t.Errorf("options %v over TCP:\n%s%s\nPCP's:\n%s%s", opts, first(g.Stdout), g.Stderr, first(w.Stdout), w.Stderr)
		}
		t.Logf("options %v:\n%s", opts, first(g.Stdout))
	}
}
