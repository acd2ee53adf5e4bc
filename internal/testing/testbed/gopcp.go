package testbed

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// GoPMCDEnv names an environment variable that, when set, is the path of
// an already built gopcp pmcd for StartGoPMCD to run instead of building
// ./cmd/pmcd.
const GoPMCDEnv = "GOPCP_PMCD"

// StartGoPMCD is StartPMCD for gopcp's own pmcd (./cmd/pmcd, built once
// per test binary): the same private ports, directory, pmcd.conf,
// namespace and accessors, so a test can start both daemons with one
// Options and compare them. PCP's tools are still what a test drives it
// with, so a missing PCP skips the test unless GOPCP_REQUIRE_PCP=1.
//
// DSO agents become pmcd.conf "dso" lines whose entry point names a Go
// agent compiled into gopcp's pmcd (see GoDSOAgent); their library is not
// opened.
func StartGoPMCD(t testing.TB, opts Options) *PMCD {
	t.Helper()
	return startForTest(t, "gopcp pmcd", StartGo, opts)
}

// StartGo is Start for gopcp's pmcd. The caller must Close it.
func StartGo(opts Options) (*PMCD, error) {
	in, err := Find()
	if err != nil {
		return nil, err
	}
	bin, err := GoPMCDPath()
	if err != nil {
		return nil, err
	}
	return startWith(in, bin, true, opts)
}

// GoDSOAgent describes a Go agent that gopcp's pmcd runs in-process under
// the pmcd.conf entry point entry; pmnsRoot is its PMNS with a root node.
// PCP's pmcd cannot run it.
func GoDSOAgent(name string, domain int, entry, pmnsRoot string) Agent {
	return Agent{
		Name: name, Domain: domain, ipc: ipcDSO, entry: entry, pmnsRoot: pmnsRoot,
		lib: "$PCP_PMDAS_DIR/" + name + "/pmda_" + name + ".so",
	}
}

// IsGo reports whether the bed runs gopcp's pmcd rather than PCP's.
func (p *PMCD) IsGo() bool { return p.goPMCD }

// goBuild is the pmcd a test binary runs: built once, or GoPMCDEnv's.
var goBuild struct {
	once sync.Once
	path string
	err  error
}

// Main runs a test binary's tests, then removes what GoPMCDPath built for
// them (the program serves every test of the process, so no one test's
// cleanup can remove it), with the other directories pcptest.ProcessDir
// made. A package whose tests start gopcp's pmcd calls it from TestMain:
// os.Exit(testbed.Main(m)).
func Main(m *testing.M) int { return pcptest.Main(m) }

// RemoveBuilt removes the pmcd GoPMCDPath built and the directories
// pcptest.ProcessDir made, for a TestMain that does more than Main; it
// must run after every test has ended.
func RemoveBuilt() { pcptest.RemoveProcessDirs() }

// GoPMCDPath returns gopcp's pmcd program, building ./cmd/pmcd of the
// module the test runs in on first use (or taking $GOPCP_PMCD). It is
// safe for concurrent use.
func GoPMCDPath() (string, error) {
	goBuild.once.Do(func() {
		if p := os.Getenv(GoPMCDEnv); p != "" {
			goBuild.path, goBuild.err = p, checkExec(p)
			return
		}
		goBuild.path, goBuild.err = pcptest.BuildGoCommand("github.com/gopcp/gopcp/cmd/pmcd", pcptest.Build{})
		if goBuild.err != nil {
			goBuild.err = fmt.Errorf("testbed: %w", goBuild.err)
		}
	})
	return goBuild.path, goBuild.err
}

// goArgs is the command line of gopcp's pmcd in a bed.
func (p *PMCD) goArgs(pmns string) []string {
	return []string{
		"-f",
		"-A",
		"-t", agentTimeout,
		"-q", agentStartTimeout,
		"-p", strconv.Itoa(p.port),
		"-c", p.ConfPath(),
		"-n", pmns,
		"-s", p.SocketPath(),
		"-l", p.LogPath(),
		"-x", filepath.Join(p.dir, "log", "pmcd.fatal"),
	}
}

// goEnv is what gopcp's pmcd gets besides the bed's environment: a
// private PCP_LOG_DIR, whose pmcd directory its daemon agents run in (as
// PCP's rc script runs pmcd there), so an agent's default log never
// lands in the system's log directory.
func (p *PMCD) goEnv() []string {
	dir := filepath.Join(p.dir, "log")
	_ = os.MkdirAll(filepath.Join(dir, "pmcd"), 0o755)
	return []string{"PCP_LOG_DIR=" + dir}
}

// goStderrPath takes what gopcp's pmcd writes outside its log.
func (p *PMCD) goStderrPath() string { return filepath.Join(p.dir, "log", "pmcd.stderr") }

// waitGoReady waits until gopcp's pmcd is ready. With its own agent
// (pmcd_init) configured, that is PCP's test: pmcd.agent.status shows
// every agent running. Without it, an answer to a namespace request (a
// listing of every name) must do: gopcp's pmcd starts its agents before
// it accepts the first client, so the answer means every agent has been
// started or has failed to, which its log says.
func (p *PMCD) waitGoReady(agents []Agent, timeout time.Duration) error {
	for _, a := range agents {
		if a.ipc == ipcDSO && a.entry == "pmcd_init" {
			return p.waitReady(agents, timeout)
		}
	}
	deadline := time.Now().Add(timeout)
	var last string
	for {
		if p.proc.exited() {
			return fmt.Errorf("testbed: gopcp pmcd exited during start-up: %v", p.proc.err)
		}
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		res := p.RunContext(ctx, nil, "pminfo", "-h", p.probeHost())
		cancel()
		if res.Err == nil {
			return nil
		}
		last = res.Stderr
		if time.Now().Add(pollInterval).After(deadline) {
			return fmt.Errorf("testbed: gopcp pmcd on %s not ready after %v: %s", p.Host(), timeout, last)
		}
		time.Sleep(pollInterval)
	}
}
