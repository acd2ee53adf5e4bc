package testbed

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// Options configures a private pmcd.
type Options struct {
	// Agents are the PMDAs named in pmcd.conf. Nil means PMCDAgent and
	// SampleAgent.
	Agents []Agent
	// Access, when not empty, becomes the body of pmcd.conf's [access]
	// section, e.g. `disallow ".*" : store;`. Empty means no section,
	// which pmcd takes as "allow everything".
	Access string
	// Args are extra pmcd command line arguments.
	Args []string
	// Env holds extra NAME=value settings for pmcd and for tools run
	// with Run and Command.
	Env []string
	// StartTimeout bounds the wait for pmcd to answer; zero means 30s
	// for Start, and for StartPMCD and StartGoPMCD the test's own
	// deadline less a margin for its cleanup (at least 30s): on a loaded
	// machine a pmcd and its agents can take longer than any fixed wait.
	StartTimeout time.Duration
	// ReadyHost is the host specification the start-up probe uses, for
	// an Access that refuses the default (Host(), over TCP); "unix:"
	// probes over the bed's Unix socket.
	ReadyHost string
}

// DefaultAgents are the agents of a bed whose Options name none.
func DefaultAgents() []Agent { return []Agent{PMCDAgent(), SampleAgent()} }

// PMCD is a running private pmcd.
type PMCD struct {
	in *Install
	// bin is the pmcd program this bed runs: PCP's (in.PMCD) or gopcp's
	// (StartGoPMCD).
	bin        string
	goPMCD     bool
	readyHost  string
	dir        string
	varDir     string // the bed's PCP_VAR_DIR (see privateVarDir)
	port       int
	agentPorts map[string]int
	env        []string
	proc       *proc

	closeOnce sync.Once
	closeErr  error
}

// startAttempts bounds retries when another process takes a port between
// probing it and pmcd binding it.
const startAttempts = 5

// StartPMCD starts a private pmcd for the test and stops it when the test
// ends, logging pmcd's and its agents' logs if the test failed. A missing
// PCP skips the test unless GOPCP_REQUIRE_PCP=1.
func StartPMCD(t testing.TB, opts Options) *PMCD {
	t.Helper()
	return startForTest(t, "pmcd", Start, opts)
}

// startForTest starts a bed with start for t's life: a missing PCP
// skips (or fails under GOPCP_REQUIRE_PCP=1), the logs are shown when
// the test failed, and the bed is stopped when it ends.
func startForTest(t testing.TB, what string, start func(Options) (*PMCD, error), opts Options) *PMCD {
	t.Helper()
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = WaitBound(t)
	}
	p, err := start(opts)
	if errors.Is(err, ErrNotInstalled) {
		missing(t, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("testbed: logs of %s on %s:\n%s", what, p.Host(), p.Logs())
		}
		if err := p.Close(); err != nil {
			t.Errorf("testbed: stopping %s: %v", what, err)
		}
	})
	return p
}

// Start-up bounds: the default without a test, the least a test gets,
// what is left of a test's deadline for its cleanups and report, and the
// bound under go test -timeout 0, where the test has no deadline.
const (
	defaultStartTimeout = 30 * time.Second
	cleanupMargin       = 30 * time.Second
	noDeadlineTimeout   = 10 * time.Minute
)

// WaitBound is how long t may wait for something that is taken as soon
// as it is ready (pmcd's readiness, an answer, a process's end): a long
// bound costs nothing when it is quick and only lets a slow one finish
// on a loaded machine, where fixed bounds of 30 and 60 s were passed.
// It is what is left of t's deadline less a margin for its cleanups and
// report, 10 minutes under -timeout 0, and never less than 30 s.
func WaitBound(t testing.TB) time.Duration {
	dt, ok := t.(interface{ Deadline() (time.Time, bool) })
	if !ok {
		return defaultStartTimeout
	}
	d, ok := dt.Deadline()
	if !ok {
		return noDeadlineTimeout
	}
	return max(time.Until(d)-cleanupMargin, defaultStartTimeout)
}

// Start starts a private pmcd without a testing.TB, for programs such as
// capture scripts. The caller must Close it.
func Start(opts Options) (*PMCD, error) {
	in, err := Find()
	if err != nil {
		return nil, err
	}
	return startWith(in, in.PMCD, false, opts)
}

// startWith starts the pmcd program bin (gopcp's when goPMCD) in a new
// bed.
func startWith(in *Install, bin string, goPMCD bool, opts Options) (*PMCD, error) {
	agents := opts.Agents
	if agents == nil {
		agents = DefaultAgents()
	}
	if err := checkAgents(agents); err != nil {
		return nil, err
	}
	// A short directory name keeps the unix socket path within the
	// 108-byte sun_path limit; the agents, as user pcp, must reach it.
	tmp, err := pcptest.SharedTemp()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(tmp, "gopcp-pmcd-")
	if err != nil {
		return nil, err
	}
	p := &PMCD{in: in, bin: bin, goPMCD: goPMCD, readyHost: opts.ReadyHost, dir: dir, agentPorts: make(map[string]int)}
	if err := p.start(agents, opts); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

func checkAgents(agents []Agent) error {
	names := make(map[string]bool)
	domains := make(map[int]bool)
	for _, a := range agents {
		if err := a.validate(); err != nil {
			return err
		}
		if names[a.Name] || domains[a.Domain] {
			return fmt.Errorf("testbed: agent %s (domain %d) appears twice", a.Name, a.Domain)
		}
		names[a.Name], domains[a.Domain] = true, true
	}
	return nil
}

func (p *PMCD) start(agents []Agent, opts Options) (err error) {
	if err := makeDirs(p.dir); err != nil {
		return err
	}
	// Without a private PCP_VAR_DIR the bed would share the system's
	// pmdaroot and instance caches, so failing to make one fails the bed.
	if sys := p.in.Var("PCP_VAR_DIR"); sys != "" {
		if p.varDir, err = privateVarDir(sys, filepath.Join(p.dir, "var")); err != nil {
			return err
		}
	}
	pmns, err := writePMNS(p.in, p.dir, agents)
	if err != nil {
		return err
	}
	for _, a := range agents {
		if a.helpSource != "" {
			if err := buildHelp(p.in, p.dir, pmns, a); err != nil {
				return err
			}
		}
	}
	timeout := opts.StartTimeout
	if timeout <= 0 {
		timeout = defaultStartTimeout
	}
	var lastErr error
	for range startAttempts {
		retry, err := p.launch(agents, opts, pmns, timeout)
		if err == nil {
			return nil
		}
		lastErr = err
		if !retry {
			break
		}
	}
	return lastErr
}

// launch reserves ports, writes pmcd.conf and runs pmcd until it answers.
// retry reports a failure that another port may cure.
func (p *PMCD) launch(agents []Agent, opts Options, pmns string, timeout time.Duration) (retry bool, err error) {
	p.releasePorts()
	if p.port, err = reservePort(); err != nil {
		return false, err
	}
	var conf strings.Builder
	for _, a := range agents {
		var argv []string
		port := 0
		if a.ipc == ipcSocket || (a.ipc == ipcPipe && slices.Contains(a.argv, PortArg)) {
			if port, err = reservePort(); err != nil {
				return false, err
			}
			p.agentPorts[a.Name] = port
		}
		if a.ipc != ipcDSO {
			if argv, err = daemonArgv(p.in, p.dir, a, port); err != nil {
				return false, err
			}
		}
		lib := p.in.expand(a.lib)
		// gopcp's pmcd runs Go agents registered under the entry point
		// and never opens the library.
		if a.ipc == ipcDSO && !p.goPMCD {
			if _, err := os.Stat(lib); err != nil {
				return false, fmt.Errorf("%w: agent %s: %v", ErrNotInstalled, a.Name, err)
			}
		}
		conf.WriteString(a.confLine(lib, argv, port) + "\n")
	}
	if opts.Access != "" {
		conf.WriteString("\n[access]\n" + opts.Access + "\n")
	}
	if err := os.WriteFile(p.ConfPath(), []byte(conf.String()), 0o644); err != nil {
		return false, err
	}

	p.env = p.buildEnv(opts.Env)
	args := p.args(pmns)
	args = append(args, opts.Args...)
	cmd := exec.Command(p.bin, args...)
	cmd.Dir = filepath.Join(p.dir, "log")
	// The tools' request timeout is theirs: pmcd and its agents run
	// with libpcp's default unless the caller set one in Options.Env.
	env := withoutVars(p.env, "PMCD_PORT", "PMCD_LOCAL", "PMCD_MAXPENDING")
	if !hasVar(opts.Env, "PMCD_REQUEST_TIMEOUT") {
		env = withoutVars(env, "PMCD_REQUEST_TIMEOUT")
	}
	cmd.Env = env
	if p.goPMCD {
		cmd.Env = append(cmd.Env, p.goEnv()...)
	}
	out, err := os.Create(p.stderrPath())
	if err != nil {
		return false, err
	}
	defer out.Close()
	cmd.Stdout, cmd.Stderr = out, out
	if p.proc, err = startProc(cmd); err != nil {
		return false, fmt.Errorf("testbed: starting pmcd: %w", err)
	}
	ready := p.waitReady
	if p.goPMCD {
		ready = p.waitGoReady
	}
	if err := ready(agents, timeout); err != nil {
		stopErr := p.proc.stop(5 * time.Second)
		logs := p.Logs()
		// libc's words, or Go's (gopcp's agents).
		retry := strings.Contains(strings.ToLower(logs), "address already in use")
		// Start afresh: the next attempt rewrites every log.
		clearLogs(p.dir)
		return retry, fmt.Errorf("%w (stop: %v)\n%s", err, stopErr, logs)
	}
	return false, nil
}

// agentTimeout is how long a bed's pmcd waits for an agent's answer (-t,
// in seconds): a minute rather than PCP's 5 seconds, since the tests
// compare answers, not their speed, and on a loaded machine (two cores,
// two test runs and a busy loop beside other work) a fetch of every
// process from pmdaproc took longer than 5 seconds, so that pmcd (PCP's
// and ours alike) declared the agent dead and the comparison failed. A
// test's own -t in Options.Args comes later and wins.
const agentTimeout = "60"

// agentStartTimeout is how long a bed's pmcd waits for an agent's first
// PDU after starting it (-q, in seconds), for the same reason: at load
// 70 the sample agent sent its credentials more than PCP's default 3
// seconds after it was started, PCP's pmcd dropped it for good, and the
// bed's readiness probe waited for it until the test's deadline. Ours
// waits the agent timeout already; it gets the same -q so that both
// command lines say it. A test's own -q in Options.Args wins.
const agentStartTimeout = "60"

// toolRequestTimeout is the PMCD_REQUEST_TIMEOUT (seconds) of the tools
// run with the bed's environment: longer than the bed's pmcd waits for an
// agent, so that pmcd's answer, an error included, always comes before a
// tool gives up. At libpcp's default of 10 s a tool on a loaded machine
// gave up on an answer pmcd was still waiting for, and libpcp then read
// that late answer as the reply to the tool's next request (PM_ERR_IPC).
// Shorter than RunTimeout, so that a tool that does time out says so
// before Run kills it. Options.Env and a caller's own cmd.Env win.
const toolRequestTimeout = "90"

// args is the command line of the bed's pmcd, before Options.Args.
func (p *PMCD) args(pmns string) []string {
	if p.goPMCD {
		return p.goArgs(pmns)
	}
	return []string{
		"-f", // stay in the foreground: no pid file, no setuid
		"-A", // no service advertisement on the network
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

// stderrPath is the file that takes pmcd's standard output and error.
func (p *PMCD) stderrPath() string {
	if p.goPMCD {
		return p.goStderrPath()
	}
	return filepath.Join(p.dir, "log", "pmcd.stderr")
}

// buildEnv is the environment of pmcd and of the tools run against it: the
// private run and tmp directories, and PMCD_PORT and PMCD_SOCKET so that a
// tool's default host reaches this pmcd. A PMPROXY_HOST from the caller
// would divert tools elsewhere, so it is dropped. PMCD_ROOT_AGENT=0 keeps
// PCP's pmcd from handing its agents to a system pmdaroot (found through
// $PCP_VAR_DIR/pmcd/root.socket, which the private var directory shares
// with the system): the bed's agents are its own children, never the
// system daemon's.
func (p *PMCD) buildEnv(extra []string) []string {
	set := []string{
		"PMCD_REQUEST_TIMEOUT=" + toolRequestTimeout,
		"PCP_RUN_DIR=" + filepath.Join(p.dir, "run"),
		"PCP_TMP_DIR=" + filepath.Join(p.dir, "tmp"),
		"PMCD_PORT=" + strconv.Itoa(p.port),
		"PMCD_SOCKET=" + p.SocketPath(),
		"PMCD_ROOT_AGENT=0",
	}
	if p.varDir != "" {
		set = append(set, "PCP_VAR_DIR="+p.varDir)
	}
	set = append(set, extra...)
	names := []string{"PMPROXY_HOST"}
	for _, kv := range set {
		name, _, _ := strings.Cut(kv, "=")
		names = append(names, name)
	}
	return append(withoutVars(os.Environ(), names...), set...)
}

// hasVar reports whether env sets name.
func hasVar(env []string, name string) bool {
	for _, kv := range env {
		if strings.HasPrefix(kv, name+"=") {
			return true
		}
	}
	return false
}

// withoutVars returns env minus the named variables.
func withoutVars(env []string, names ...string) []string {
	out := make([]string, 0, len(env))
next:
	for _, kv := range env {
		for _, n := range names {
			if strings.HasPrefix(kv, n+"=") {
				continue next
			}
		}
		out = append(out, kv)
	}
	return out
}

func (p *PMCD) releasePorts() {
	if p.port != 0 {
		releasePort(p.port)
		p.port = 0
	}
	for name, port := range p.agentPorts {
		releasePort(port)
		delete(p.agentPorts, name)
	}
}

func clearLogs(dir string) {
	logs, _ := filepath.Glob(filepath.Join(dir, "log", "*"))
	for _, l := range logs {
		os.Remove(l)
	}
}

// Close stops pmcd and its agents and removes the private directory. It
// is safe to call more than once.
func (p *PMCD) Close() error {
	p.closeOnce.Do(func() {
		if p.proc != nil {
			p.closeErr = p.proc.stop(5 * time.Second)
		}
		p.releasePorts()
		if err := os.RemoveAll(p.dir); err != nil && p.closeErr == nil {
			p.closeErr = err
		}
	})
	return p.closeErr
}

// Host is the host specification of this pmcd for PCP tools' -h option.
func (p *PMCD) Host() string { return "localhost:" + strconv.Itoa(p.port) }

// Port is the TCP port pmcd accepts clients on.
func (p *PMCD) Port() int { return p.port }

// PID is pmcd's process id.
func (p *PMCD) PID() int { return p.proc.pid() }

// AgentPort is the TCP port of a socket agent or the one put for PortArg
// in a pipe agent's arguments, else 0.
func (p *PMCD) AgentPort(name string) int { return p.agentPorts[name] }

// Dir is the bed's private directory; it disappears on Close.
func (p *PMCD) Dir() string { return p.dir }

// ConfPath is the private pmcd.conf.
func (p *PMCD) ConfPath() string { return filepath.Join(p.dir, "pmcd.conf") }

// LogPath is pmcd's log file.
func (p *PMCD) LogPath() string { return filepath.Join(p.dir, "log", "pmcd.log") }

// SocketPath is pmcd's unix domain socket.
func (p *PMCD) SocketPath() string { return filepath.Join(p.dir, "run", "pmcd.socket") }

// Install is the PCP installation this bed runs.
func (p *PMCD) Install() *Install { return p.in }

// Env is the environment tools need to reach this pmcd by default.
func (p *PMCD) Env() []string { return append([]string(nil), p.env...) }

// Logs returns the contents of every log in the bed, for diagnosis.
func (p *PMCD) Logs() string {
	var b strings.Builder
	files, _ := filepath.Glob(filepath.Join(p.dir, "log", "*"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil || len(data) == 0 {
			continue
		}
		fmt.Fprintf(&b, "==> %s <==\n%s\n", filepath.Base(f), data)
	}
	return b.String()
}
