package testbed

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
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

// goBuild is the one build of ./cmd/pmcd a test binary makes.
var goBuild struct {
	once sync.Once
	path string
	dir  string // the build directory, when built here
	err  error
}

// Main runs a test binary's tests, then removes what GoPMCDPath built for
// them (the program serves every test of the process, so no one test's
// cleanup can remove it) and the directories pcptest.ProcessDir made. A
// package whose tests start gopcp's pmcd calls it from TestMain:
// os.Exit(testbed.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	RemoveBuilt()
	return code
}

// RemoveBuilt removes the pmcd GoPMCDPath built and the directories
// pcptest.ProcessDir made, for a TestMain that does more than Main; it
// must run after every test has ended.
func RemoveBuilt() {
	if goBuild.dir != "" {
		os.RemoveAll(goBuild.dir)
	}
	pcptest.RemoveProcessDirs()
}

// GoPMCDPath returns gopcp's pmcd program, building ./cmd/pmcd of the
// module the test runs in on first use (or taking $GOPCP_PMCD). It is
// safe for concurrent use.
func GoPMCDPath() (string, error) {
	goBuild.once.Do(func() {
		if p := os.Getenv(GoPMCDEnv); p != "" {
			goBuild.path, goBuild.err = p, checkExec(p)
			return
		}
		goBuild.path, goBuild.err = buildGoPMCD()
		if goBuild.err == nil {
			goBuild.dir = filepath.Dir(goBuild.path)
		}
	})
	return goBuild.path, goBuild.err
}

// buildDirPrefix names the per-process directories that hold a built
// pmcd; Main removes its own process's, and the process id in the name
// lets a later process remove those of a process that was killed.
const buildDirPrefix = "gopcp-gopmcd-"

func buildGoPMCD() (string, error) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		if root := os.Getenv("GOROOT"); root != "" {
			goTool, err = filepath.Join(root, "bin", "go"), nil
		}
	}
	if err != nil {
		return "", fmt.Errorf("testbed: building gopcp pmcd: no go tool: %w", err)
	}
	sweepBuildDirs()
	dir, err := os.MkdirTemp("", buildDirPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, "pmcd")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goTool, "build", "-o", out, "github.com/gopcp/gopcp/cmd/pmcd")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("testbed: go build ./cmd/pmcd: %v: %s", err, stderr.Bytes())
	}
	return out, nil
}

// sweepBuildDirs removes build directories left by test processes that
// have ended.
func sweepBuildDirs() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), buildDirPrefix+"*"))
	for _, d := range dirs {
		rest := strings.TrimPrefix(filepath.Base(d), buildDirPrefix)
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			os.RemoveAll(d)
		}
	}
}

// goArgs is the command line of gopcp's pmcd in a bed.
func (p *PMCD) goArgs(pmns string) []string {
	return []string{
		"-f",
		"-A",
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
