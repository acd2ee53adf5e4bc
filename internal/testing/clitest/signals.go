package clitest

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// SignalCase is a command line that leaves the program waiting (a paced
// replay, a live run at a long interval, a source that never answers),
// for CompareSignals to signal it there.
type SignalCase struct {
	Name string
	Args []string
	Env  []string
	// Ignore are signals the program is started with ignored, as a
	// shell's `trap "" INT QUIT` or a background command of a shell
	// without job control leaves them.
	Ignore []syscall.Signal
	// Ready says whether the program waits now, given what it has
	// written to stdout and its pid.
	Ready func(stdout []byte, pid int) bool
	// Stall, when set, is the server the program connects to: it is
	// reset before each run, and the program waits once it connected.
	Stall *Stall
	// Reset, when set, is called before each run (a Greeter's Reset).
	Reset func()
	// Mask rewrites both sides' stdout before comparing.
	Mask func(string) string
}

// Lines is a Ready for a program that waits once it has written n lines.
func Lines(n int) func([]byte, int) bool {
	return func(out []byte, _ int) bool { return bytes.Count(out, []byte("\n")) >= n }
}

// Matches is a Ready for a program that waits once a line of its output
// matches re.
func Matches(re string) func([]byte, int) bool {
	r := regexp.MustCompile("(?m)" + re)
	return func(out []byte, _ int) bool { return r.Match(out) }
}

// InOpen is a Ready for a program blocked opening a FIFO no one writes:
// one of its threads waits in openat(2).
func InOpen(_ []byte, pid int) bool {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/syscall", pid))
	prefix := []byte(strconv.Itoa(syscall.SYS_OPENAT) + " ")
	for _, f := range tasks {
		if b, err := os.ReadFile(f); err == nil && bytes.HasPrefix(b, prefix) {
			return true
		}
	}
	return false
}

// FIFOArchive makes an archive's three files as FIFOs no one writes, in
// a directory of t's, and returns its name: a program that opens it
// waits in open(2) (InOpen) for as long as it is let.
func FIFOArchive(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"a.meta", "a.index", "a.0"} {
		if err := syscall.Mkfifo(filepath.Join(dir, f), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "a")
}

// Stall is a server that accepts connections and never answers, as a
// pmcd (or Redis) that hangs: a client waits for its greeting for as
// long as its timeouts let it. Accepted is a Ready for a program
// connected to it.
type Stall struct {
	Host string // localhost:port
	port int
	// from are the client ports of the connections accepted since the
	// last Reset.
	from clientPorts
}

// Accepted says whether the program pid holds a connection the stall
// has accepted since the last Reset. It asks for the program's own
// connection, not any: one a program of an earlier run left in the
// listener's queue may be accepted after the Reset, before this run's
// program has even connected.
func (s *Stall) Accepted(_ []byte, pid int) bool { return s.from.heldBy(pid, s.port) }

// Reset forgets the connections so far.
func (s *Stall) Reset() { s.from.reset() }

// NewStall starts a Stall for t's life.
func NewStall(t testing.TB) *Stall {
	t.Helper()
	l, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Stall{port: l.Addr().(*net.TCPAddr).Port}
	s.Host = "localhost:" + strconv.Itoa(s.port)
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
			if a, ok := c.RemoteAddr().(*net.TCPAddr); ok {
				s.from.add(a.Port)
			}
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done // the accepting goroutine has ended: conns is ours
		for _, c := range conns {
			c.Close()
		}
	})
	return s
}

// Ended is how a signalled program ended: the signal that ended it (0
// if none) or its exit status, and what it wrote.
type Ended struct {
	Signal         syscall.Signal
	Code           int
	Stdout, Stderr string
}

func (e Ended) String() string {
	if e.Signal != 0 {
		return "ended by " + e.Signal.String()
	}
	return "exit " + strconv.Itoa(e.Code)
}

// settle bounds every wait of RunSignalled: far more than any program
// takes on a loaded machine, only so that a program that never gets
// there fails the test rather than hanging it.
const settle = 2 * time.Minute

// survive is how long RunSignalled gives a program to end by a signal it
// took before it sends SIGTERM: far more than a runtime's way from its
// handler to the default action takes on a loaded machine; a program
// that survives the signal pays it once per run.
const survive = 5 * time.Second

// RunSignalled starts bin with c's arguments and environment, waits
// until c.Ready, sends sig and waits until the kernel has taken it off
// the process's pending signals, then, unless the program ends within
// survive, sends SIGTERM, which ends a program that survived sig, and
// reports how it ended.
func RunSignalled(t *testing.T, bin string, c SignalCase, sig syscall.Signal) Ended {
	t.Helper()
	args := c.Args
	path := bin
	if len(c.Ignore) > 0 {
		var names []string
		for _, s := range c.Ignore {
			names = append(names, strconv.Itoa(int(s)))
		}
		path = "/bin/sh"
		args = append([]string{"-c", `trap "" ` + strings.Join(names, " ") + `; exec "$@"`, "sh", bin}, args...)
	}
	ready := c.Ready
	if c.Reset != nil {
		c.Reset()
	}
	if c.Stall != nil {
		c.Stall.Reset()
		if ready == nil {
			ready = c.Stall.Accepted
		}
	}
	cmd := exec.Command(path, args...)
	cmd.Env = append(append(os.Environ(), ArchiveEnv...), c.Env...)
	var out SyncBuffer
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	defer func() {
		select {
		case <-exited:
		default:
			cmd.Process.Kill()
			<-exited
		}
	}()
	deadline := time.Now().Add(settle)
	for ready != nil && !ready(out.Bytes(), pid) {
		select {
		case <-exited:
			t.Fatalf("%s %v ended before it waited: %v\nstdout %q\nstderr %q", bin, c.Args, waitErr, out.Bytes(), errb.Bytes())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s %v: not waiting after %v; stdout %q", bin, c.Args, settle, out.Bytes())
		}
		time.Sleep(time.Millisecond)
	}
	// A signal the program ignores when sent and still ignores once off
	// the pending set was thrown away (the kernel drops an ignored
	// signal, and one that turns ignored while pending): it cannot end
	// the program, which need not be given survive.
	wasIgnored := ignored(pid, sig)
	syscall.Kill(pid, sig)
	for pending(pid, sig) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: %v still pending after %v", bin, sig, settle)
		}
		time.Sleep(time.Millisecond)
	}
	if sig != syscall.SIGTERM {
		// Off the pending set means taken, not acted on: a signal the Go
		// runtime catches is still on its way to ending the program (its
		// handler resets the action and raises it again), and a SIGTERM
		// sent at once could end it first (a run under load was "ended
		// by terminated" after SIGHUP). So a program gets survive to end
		// by sig before SIGTERM ends one that lived on.
		if wasIgnored && ignored(pid, sig) {
			syscall.Kill(pid, syscall.SIGTERM)
		} else {
			select {
			case <-exited:
			case <-time.After(survive):
				syscall.Kill(pid, syscall.SIGTERM)
			}
		}
	}
	select {
	case <-exited:
	case <-time.After(settle):
		t.Fatalf("%s %v: still running %v after %v and SIGTERM", bin, c.Args, settle, sig)
	}
	e := Ended{Stdout: string(out.Bytes()), Stderr: errb.String()}
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		e.Signal = ws.Signal()
	} else {
		e.Code = ws.ExitStatus()
	}
	return e
}

// Signals are the signals CompareSignals sends: every one whose default
// action ends a process, but SIGKILL and the signals of faults
// (SIGSEGV, SIGBUS, SIGFPE, SIGILL), and three of the thirty real-time
// ones, the first, one between and the last.
var Signals = []syscall.Signal{
	syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTRAP, syscall.SIGABRT,
	syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGPIPE, syscall.SIGALRM, syscall.SIGTERM,
	syscall.SIGSTKFLT, syscall.SIGXCPU, syscall.SIGXFSZ, syscall.SIGVTALRM, syscall.SIGPROF,
	syscall.SIGIO, syscall.SIGPWR, syscall.SIGSYS, 35, 50, 64,
}

// CompareSignals runs each case with PCP's program (pcpBin) and ours,
// sends each of sigs as RunSignalled does, and compares how they ended
// and what they wrote; it logs how many runs were compared and how many
// differed.
func CompareSignals(t *testing.T, pcpBin, ourBin string, sigs []syscall.Signal, cases []SignalCase) {
	t.Helper()
	compared, differed := 0, 0
	defer func() {
		t.Helper()
		t.Logf("%d signalled runs compared with PCP's %s, %d differed", compared, filepath.Base(pcpBin), differed)
	}()
	for _, c := range cases {
		for _, sig := range sigs {
			want := RunSignalled(t, pcpBin, c, sig)
			got := RunSignalled(t, ourBin, c, sig)
			compared++
			wantOut, gotOut := want.Stdout, got.Stdout
			if c.Mask != nil {
				wantOut, gotOut = c.Mask(wantOut), c.Mask(gotOut)
			}
			bad := false
			if got.Signal != want.Signal || got.Code != want.Code {
				t.Errorf("%s, %v: ours %v, PCP's %v", c.Name, sig, got, want)
				bad = true
			}
			if gotOut != wantOut {
				t.Errorf("%s, %v: stdout differs\n%s", c.Name, sig, Diff(wantOut, gotOut))
				bad = true
			}
			if got.Stderr != want.Stderr {
				t.Errorf("%s, %v: stderr differs\n%s", c.Name, sig, Diff(want.Stderr, got.Stderr))
				bad = true
			}
			if bad {
				differed++
			}
		}
	}
}

// RunReaderGone runs bin with args, its stdout a pipe of one page whose
// reader closes it after the first read, and reports how it ended: PCP's
// tools die of the SIGPIPE that follows unless libpcp ignored it (as it
// does once it sent a PDU to a pmcd), in which case they write on,
// failing, and end as they would have.
func RunReaderGone(t *testing.T, bin string, args, env []string) Ended {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	const setPipeSize = 1031 // F_SETPIPE_SZ
	syscall.Syscall(syscall.SYS_FCNTL, w.Fd(), setPipeSize, 4096)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(append(os.Environ(), ArchiveEnv...), env...)
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	first := make([]byte, 1)
	r.Read(first)
	r.Close()
	err = cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	e := Ended{Stderr: errb.String()}
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		e.Signal = ws.Signal()
	} else {
		e.Code = ws.ExitStatus()
	}
	return e
}

// ReaderGoneCase is a command line whose output is far more than a
// pipe's page, for CompareReaderGone.
type ReaderGoneCase struct {
	Name string
	Args []string
	Env  []string
}

// CompareReaderGone runs each case with PCP's program and ours as
// RunReaderGone does and compares how they ended and their stderr.
func CompareReaderGone(t *testing.T, pcpBin, ourBin string, cases []ReaderGoneCase) {
	t.Helper()
	differed := 0
	for _, c := range cases {
		want := RunReaderGone(t, pcpBin, c.Args, c.Env)
		got := RunReaderGone(t, ourBin, c.Args, c.Env)
		if got.Signal != want.Signal || got.Code != want.Code || got.Stderr != want.Stderr {
			t.Errorf("%s, reader gone: ours %v, PCP's %v\n%s", c.Name, got, want, Diff(want.Stderr, got.Stderr))
			differed++
		}
	}
	t.Logf("%d runs whose reader went compared with PCP's %s, %d differed", len(cases), filepath.Base(pcpBin), differed)
}

// CompareIntervalSignals is the signal comparison for the tools that
// report from a live host at an interval (pmclient, pmclient_fg, pmstat):
// every signal that ends a process is sent to PCP's tool and ours (the
// program at ours) while each waits for its first interval, its heading
// written; for a pmcd that never answers; and opening an archive that is
// a FIFO. Then each writes to a pipe whose reader has gone, from a host:
// libpcp ignores SIGPIPE once it talks to pmcd, so both write on.
func CompareIntervalSignals(t *testing.T, tool, ours string) {
	t.Helper()
	pcpBin := pcptest.NeedTool(t, tool)
	bed := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), testbed.LinuxAgent()}})
	stall := NewStall(t)
	CompareSignals(t, pcpBin, ours, Signals, []SignalCase{
		{Name: "live", Args: []string{"-h", bed.Host(), "-t", "1h"}, Ready: Lines(3), Mask: Times},
		{Name: "pmcd never answers", Args: []string{"-h", stall.Host}, Stall: stall,
			Env: []string{"PMCD_CONNECT_TIMEOUT=3600"}},
		{Name: "archive a FIFO", Args: []string{"-a", FIFOArchive(t)}, Ready: InOpen},
	})
	CompareReaderGone(t, pcpBin, ours, []ReaderGoneCase{
		{Name: "live", Args: []string{"-h", bed.Host(), "-t", "0.05", "-s", "120"}},
	})
}
