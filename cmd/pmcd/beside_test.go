package main

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// beside is a private PCP tree in which another daemon (a sleep process
// standing in for PCP's pmcd) already runs: its log, pid file and Unix
// socket are there, and its port may be taken.
type beside struct {
	dir, log, prev, pid, socket string
	env                         []string
	other                       int // the other daemon's pid
}

// newBeside makes the tree; when live, the sleep process writes to the
// log, is named in the pid file and a listener (this test's) answers on
// the socket; else the three are left by a daemon gone.
func newBeside(t *testing.T, live bool) *beside {
	t.Helper()
	b := privateTree(t)
	for path, text := range map[string]string{b.log: "the other pmcd's log\n", b.prev: "its previous log\n"} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := net.Listen("unix", b.socket)
	if err != nil {
		t.Fatal(err)
	}
	if live {
		t.Cleanup(func() { l.Close() })
		b.other = pcptest.HoldOpen(t, b.log, false)
	} else {
		l.(*net.UnixListener).SetUnlinkOnClose(false)
		l.Close()
		gone := exec.Command("true")
		if err := gone.Run(); err != nil {
			t.Fatal(err)
		}
		b.other = gone.Process.Pid
	}
	if err := os.WriteFile(b.pid, []byte(strconv.Itoa(b.other)), 0o444); err != nil {
		t.Fatal(err)
	}
	return b
}

// privateTree makes an empty private PCP tree: an empty pcp.conf and
// every PCP directory in a temporary one.
func privateTree(t *testing.T) *beside {
	t.Helper()
	dir := t.TempDir()
	b := &beside{dir: dir}
	empty := filepath.Join(dir, "pcp.conf")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	b.env = append(withoutPCP(os.Environ()), "PCP_CONF="+empty)
	for _, v := range []string{"PCP_RUN_DIR", "PCP_LOG_DIR", "PCP_TMP_DIR", "PCP_VAR_DIR", "PCP_PMDAS_DIR", "PCP_SYSCONF_DIR"} {
		d := filepath.Join(dir, strings.ToLower(v))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		b.env = append(b.env, v+"="+d)
	}
	if err := os.MkdirAll(filepath.Join(dir, "pcp_log_dir", "pmcd"), 0o755); err != nil {
		t.Fatal(err)
	}
	b.log = filepath.Join(dir, "pcp_log_dir", "pmcd", "pmcd.log")
	b.prev = b.log + ".prev"
	b.pid = filepath.Join(dir, "pcp_run_dir", "pmcd.pid")
	b.socket = filepath.Join(dir, "pcp_run_dir", "pmcd.socket")
	return b
}

// state is each file's content and identity.
func (b *beside) state(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, p := range []string{b.log, b.prev, b.pid, b.socket} {
		fi, err := os.Lstat(p)
		if err != nil {
			out[p] = "absent"
			continue
		}
		data, _ := os.ReadFile(p)
		out[p] = string(data) + " inode " + strconv.FormatUint(fi.Sys().(*syscall.Stat_t).Ino, 10)
	}
	return out
}

// startPMCD runs gopcp's pmcd (built) in b with args.
func (b *beside) startPMCD(t *testing.T, args ...string) (*exec.Cmd, *clitest.SyncBuffer, <-chan error) {
	t.Helper()
	path, err := testbed.GoPMCDPath()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, append(args, "-x", filepath.Join(b.dir, "fatal"))...)
	cmd.Env = b.env
	cmd.Dir = b.dir
	stderr := &clitest.SyncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	return cmd, stderr, exited
}

// TestPortTakenTouchesNothing: a pmcd whose port is taken fails before
// it touches a file: the running daemon's log, its .prev, its pid file
// and its socket are as they were, and the failure is on stderr.
func TestPortTakenTouchesNothing(t *testing.T) {
	b := newBeside(t, true)
	taken, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port
	before := b.state(t)
	_, stderr, exited := b.startPMCD(t, "-p", strconv.Itoa(port))
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Errorf("exit: %v, want status 1", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("pmcd still running with its port taken")
	}
	if after := b.state(t); !equal(before, after) {
		t.Errorf("files changed:\nbefore %q\nafter  %q", before, after)
	}
	if !strings.Contains(stderr.String(), "Error: OpenRequestSocket("+strconv.Itoa(port)+", INADDR_ANY, inet) __pmBind: Address already in use") || !strings.Contains(stderr.String(), "pmcd not started due to errors!") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// TestBesideLiveDaemon: a pmcd on a free port beside a live daemon
// serves, but leaves that daemon's log (held open by it), pid file and
// socket alone, logging to stderr instead and saying why.
func TestBesideLiveDaemon(t *testing.T) {
	b := newBeside(t, true)
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	before := b.state(t)
	cmd, stderr, exited := b.startPMCD(t, "-p", strconv.Itoa(port))
	// With its log on stderr, pmcd's request port table there says it
	// serves, after deciding about the pid file.
	if !waitFor(func() bool { return strings.Contains(stderr.String(), "pmcd request port(s):") }) {
		t.Fatalf("pmcd not serving:\n%s", stderr)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := <-exited; err != nil {
		t.Errorf("pmcd: %v\n%s", err, stderr)
	}
	if after := b.state(t); !equal(before, after) {
		t.Errorf("files changed:\nbefore %q\nafter  %q", before, after)
	}
	c, err := net.Dial("unix", b.socket)
	if err != nil {
		t.Errorf("the other daemon's socket no longer answers: %v", err)
	} else {
		c.Close()
	}
	for _, want := range []string{
		b.log + ": process " + strconv.Itoa(b.other) + " holds it open",
		b.pid + ": process " + strconv.Itoa(b.other) + " is named in it",
		b.socket + ": another process accepts connections on it",
		"pmcd request port(s):",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// TestAfterDeadDaemon: files a daemon no longer running left behind are
// taken over: its log moved to .prev, its pid file and socket replaced;
// at exit the new pid file and socket are removed, the log stays.
func TestAfterDeadDaemon(t *testing.T) {
	b := newBeside(t, false)
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	cmd, stderr, exited := b.startPMCD(t, "-p", strconv.Itoa(port))
	waitListening(t, port, exited, stderr)
	// The pid file is written once the agents have started, after pmcd
	// listens.
	if !waitFor(func() bool {
		got, _ := os.ReadFile(b.pid)
		return string(got) == strconv.Itoa(cmd.Process.Pid)
	}) {
		got, _ := os.ReadFile(b.pid)
		t.Errorf("pid file holds %q, want %d", got, cmd.Process.Pid)
	}
	c, err := net.Dial("unix", b.socket)
	if err != nil {
		t.Errorf("no Unix socket: %v", err)
	} else {
		c.Close()
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := <-exited; err != nil {
		t.Errorf("pmcd: %v\n%s", err, stderr)
	}
	if got, _ := os.ReadFile(b.prev); string(got) != "the other pmcd's log\n" {
		t.Errorf(".prev holds %q, want the old log", got)
	}
	if got, _ := os.ReadFile(b.log); !strings.HasPrefix(string(got), "Log for pmcd on ") || !strings.Contains(string(got), "Info: pmcd Shutdown") {
		t.Errorf("new log:\n%s", got)
	}
	for _, p := range []string{b.pid, b.socket} {
		if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left behind: %v", p, err)
		}
	}
}

func equal(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// waitFor polls cond for up to a minute.
func waitFor(cond func() bool) bool {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// TestSecondStartTouchesNothing: a second gopcp pmcd started like a
// running one (same directories, same port) fails, and the running one's
// log, pid file and socket are as they were; the running one goes on
// serving and, stopped, leaves nothing of the second in its log.
func TestSecondStartTouchesNothing(t *testing.T) {
	b := privateTree(t)
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	first, stderr, exited := b.startPMCD(t, "-p", strconv.Itoa(port))
	waitListening(t, port, exited, stderr)
	if !waitFor(func() bool {
		got, _ := os.ReadFile(b.log)
		return strings.Contains(string(got), "pmcd request port(s):")
	}) {
		t.Fatalf("first pmcd not serving:\n%s", stderr)
	}
	before := b.state(t)
	_, stderr2, exited2 := b.startPMCD(t, "-p", strconv.Itoa(port))
	select {
	case err := <-exited2:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Errorf("second pmcd: %v, want status 1\n%s", err, stderr2)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("second pmcd still running")
	}
	if after := b.state(t); !equal(before, after) {
		t.Errorf("files changed:\nbefore %q\nafter  %q", before, after)
	}
	waitListening(t, port, exited, stderr)
	first.Process.Signal(syscall.SIGTERM)
	if err := <-exited; err != nil {
		t.Errorf("first pmcd: %v\n%s", err, stderr)
	}
	logText, _ := os.ReadFile(b.log)
	if strings.Contains(string(logText), "Address already in use") || !strings.Contains(string(logText), "Info: pmcd Shutdown") {
		t.Errorf("first pmcd's log:\n%s", logText)
	}
}
