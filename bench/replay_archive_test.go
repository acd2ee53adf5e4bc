package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// linuxLogRoots are the Linux agent's subtrees the replay archives log
// (everything the agent serves on this host; proc.* is another agent).
var linuxLogRoots = []string{"hinv", "kernel", "mem", "swap", "network", "disk", "filesys",
	"vfs", "ipc", "tmpfs", "nfs", "nfs3", "nfs4", "rpc", "swapdev", "quota", "xfs", "zram"}

// archiveSpec says what makeLinuxArchive logs and for how long.
type archiveSpec struct {
	name     string   // archive base name
	interval string   // pmlogger's interval, e.g. "100 msec"
	roots    []string // metrics or subtrees logged
	minBytes int64    // the data volume's size at which logging stops
	// duration, when set, is how long pmlogger logs (instead of minBytes)
	duration time.Duration
	env      []string // extra environment of pmcd and its agents
	// during, when set, runs every tick while pmlogger logs (a fixture
	// writer moving its counters)
	during func(tick int)
}

// replayArchiveDir is where the made archives go: a temporary directory
// removed at the test's end, or GOPCP_BENCH_REPLAY_DIR, which keeps them
// for the next run (they are never committed).
func replayArchiveDir(t *testing.T) string {
	if d := os.Getenv("GOPCP_BENCH_REPLAY_DIR"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// makeLinuxArchive logs spec's metrics with PCP's pmlogger from PCP's
// Linux agent under a private PCP pmcd until the data volume holds
// spec.minBytes, and returns the archive's base name. An archive of
// that name already in the directory (GOPCP_BENCH_REPLAY_DIR) whose
// volume is large enough is reused.
func makeLinuxArchive(t *testing.T, dir string, spec archiveSpec) string {
	t.Helper()
	base := filepath.Join(dir, spec.name)
	if st, err := os.Stat(base + ".0"); err == nil && st.Size() >= spec.minBytes {
		if _, err := os.Stat(base + ".index"); err == nil && os.Getenv("GOPCP_BENCH_REPLAY_DIR") != "" {
			t.Logf("reusing %s (%d bytes)", base, st.Size())
			return base
		}
	}
	for _, f := range []string{".0", ".meta", ".index", ".log"} {
		os.Remove(base + f)
	}
	p := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), testbed.LinuxAgent()}, Env: spec.env})
	cfg := base + ".config"
	text := "log mandatory on " + spec.interval + " {\n\t" + strings.Join(spec.roots, "\n\t") + "\n}\n"
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	cmd, err := p.Command(context.Background(), "pmlogger", "-h", p.Host(), "-c", cfg, "-l", base+".log", base)
	if err != nil {
		t.Fatal(err)
	}
	// No derived metrics: PCP's default ones that the subtrees hold
	// (domain 511) made pmlogger dump a whole result to its log at every
	// sample ("check_inst: cannot find PMID"), a 67 MB log and a tenth of
	// the samples in three minutes.
	cmd.Env = append(cmd.Env, "PMLOGGER_PORT="+strconv.Itoa(port), "PCP_DERIVED_CONFIG=")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t0 := time.Now()
	for tick := 0; ; tick++ {
		if spec.during != nil {
			spec.during(tick)
		}
		time.Sleep(100 * time.Millisecond)
		if spec.duration > 0 {
			if time.Since(t0) >= spec.duration {
				break
			}
		} else if st, err := os.Stat(base + ".0"); err == nil && st.Size() >= spec.minBytes {
			break
		}
		stopped := false
		select {
		case <-done:
			stopped = true
		default:
		}
		if stopped || time.Since(t0) > time.Hour {
			if !stopped {
				cmd.Process.Kill()
				<-done
			}
			log, _ := os.ReadFile(base + ".log")
			t.Fatalf("pmlogger stopped or took over an hour:\n%s", log)
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-done:
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatal("pmlogger did not stop on SIGINT")
	}
	st, err := os.Stat(base + ".0")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("made %s: %d bytes of data volume in %v", base, st.Size(), time.Since(t0).Round(time.Second))
	return base
}

// mib is a byte count in MiB, for logs.
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
