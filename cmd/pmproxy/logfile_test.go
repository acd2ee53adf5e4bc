package main

import (
	"errors"
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

// logMasks hide what differs between two runs of a pmproxy: times, pids,
// host, descriptors, the private port and directory.
var logMasks = []struct {
	re  *regexp.Regexp
	out string
}{
	{regexp.MustCompile(`(started|finished) \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}`), "$1 DATE"},
	{regexp.MustCompile(`^Log for pmproxy on \S+ `), "Log for pmproxy on HOST "},
	{regexp.MustCompile(`^\[\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d\] pmproxy\(\d+\)`), "[STAMP] pmproxy(PID)"},
	{regexp.MustCompile(`PID = \d+`), "PID = PID"},
	{regexp.MustCompile(`^  (ok |err)  +-?\d+ `), "  $1 FD "},
}

// maskLog is a log with logMasks applied and the private directory and
// ports named.
func maskLog(log, dir string, ports []int) string {
	var out []string
	for _, line := range strings.Split(log, "\n") {
		line = strings.ReplaceAll(line, dir, "DIR")
		for _, p := range ports {
			line = strings.ReplaceAll(line, " "+strconv.Itoa(p)+" ", " PORT ")
		}
		for _, m := range logMasks {
			line = m.re.ReplaceAllString(line, m.out)
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// logRun is what a pmproxy run left: its masked log ("" when it wrote
// none), its masked standard error and its exit status.
type logRun struct {
	log, stderr string
	status      int
}

// runForLog starts bin in foreground with args, PCP_RUN_DIR, PCP_TMP_DIR
// and PCP_LOG_DIR in a fresh directory (its working directory, holding
// pmproxy.conf) and env added; one that serves (its log, or its standard
// error when the log cannot be made, has the port table, and until when
// not "") is stopped with SIGTERM.
func runForLog(t *testing.T, bin string, ports []int, env []string, until string, args ...string) logRun {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{"run", "tmp", "log"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	conf := filepath.Join(dir, "pmproxy.conf")
	if err := os.WriteFile(conf, []byte("[pmproxy]\nhttp.enabled = true\n[redis]\nenabled = false\n[discover]\nenabled = false\n[pmseries]\nenabled = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(dir, "pmproxy.log")
	// -T bounds a run the test fails to stop.
	cmd := exec.Command(bin, append([]string{"-f", "-A", "-T", "60", "-c", conf, "-l", logPath}, args...)...)
	cmd.Dir = dir
	var keep []string
	for _, kv := range os.Environ() {
		switch name, _, _ := strings.Cut(kv, "="); name {
		case "PCP_USER", "PCP_RUN_DIR", "PCP_TMP_DIR", "PCP_LOG_DIR", "PMPROXY_PORT", "PMPROXY_LOCAL", "PMPROXY_SOCKET", "PMPROXY_MAXPENDING", "NOTIFY_SOCKET":
			continue
		}
		keep = append(keep, kv)
	}
	cmd.Env = append(append(keep, "PCP_RUN_DIR="+filepath.Join(dir, "run"), "PCP_TMP_DIR="+filepath.Join(dir, "tmp"),
		"PCP_LOG_DIR="+filepath.Join(dir, "log")), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	// a file, which the wait below reads while the program writes it
	errPath := filepath.Join(dir, "stderr")
	errFile, err := os.Create(errPath)
	if err != nil {
		t.Fatal(err)
	}
	defer errFile.Close()
	cmd.Stderr = errFile
	if err := pcptest.StartKept(cmd); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// Polled; the deadline only bounds a broken run.
wait:
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		select {
		case err = <-done:
			break wait
		default:
		}
		b, _ := os.ReadFile(logPath)
		if !strings.Contains(string(b), "request port(s)") {
			b, _ = os.ReadFile(errPath)
		}
		if strings.Contains(string(b), "request port(s)") && strings.Contains(string(b), until) {
			cmd.Process.Signal(syscall.SIGTERM)
			err = <-done
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			<-done
			t.Fatalf("%s %q: neither served nor ended", bin, args)
		}
	}
	var r logRun
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.status = ee.ExitCode()
	}
	if b, err := os.ReadFile(logPath); err == nil {
		r.log = maskLog(string(b), dir, ports)
	}
	b, _ := os.ReadFile(errPath)
	r.stderr = maskLog(string(b), dir, ports)
	return r
}

// TestLogLikePCP runs PCP's pmproxy and ours as a user would from a
// terminal (-f) and compares the logs they write, masked: a start on a
// free port stopped with SIGTERM, with and without its Unix socket (a
// directory that is not there), the port in use (with the socket
// PCP's serves on that alone; without, neither starts), PMPROXY_PORT
// values PCP refuses (pmproxy not started, exit 1) and a bad option
// (no log), a log that cannot be made (the log on standard error); then
// the sockets a port list and interfaces ask for:
// PMPROXY_PORT with -p (both lists, the environment's first), port 0
// (loopback), ports repeated (dropped with a warning, then tried again),
// two interfaces for one port, PMPROXY_LOCAL beside -i, and -p after a
// bad PMPROXY_PORT (libpcp's fatal allocation, on standard error).
func TestLogLikePCP(t *testing.T) {
	t.Parallel()
	theirs, ours := pmproxyPair(t)
	port := testbed.ReservedPort(t)
	p := strconv.Itoa(port)
	nosock := filepath.Join(t.TempDir(), "missing", "pmproxy.socket")
	busy := testbed.ReservedPort(t)
	// every family on busy taken
	ln, err := net.Listen("tcp", ":"+strconv.Itoa(busy))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	b := strconv.Itoa(busy)
	other := testbed.ReservedPort(t)
	q := strconv.Itoa(other)
	// Redis where nothing listens: the configuration's say on whether
	// it is tried shows in the log
	redis := []string{"-h", "127.0.0.1", "-r", strconv.Itoa(testbed.ReservedPort(t))}
	const tried = "Cannot connect to Redis"
	home := "HOME=" + t.TempDir()
	for _, c := range []struct {
		name  string
		env   []string
		args  []string
		until string
	}{
		{"start and SIGTERM", nil, []string{"-p", p}, ""},
		{"no Unix socket", nil, []string{"-p", p, "-s", nosock}, ""},
		{"port in use", nil, []string{"-p", b}, ""},
		{"port in use, no Unix socket", nil, []string{"-p", b, "-s", nosock}, ""},
		{"PMPROXY_PORT", []string{"PMPROXY_PORT=" + p}, nil, ""},
		{"PMPROXY_PORT=x", []string{"PMPROXY_PORT=x"}, nil, ""},
		{"PMPROXY_PORT=44322x", []string{"PMPROXY_PORT=44322x"}, nil, ""},
		{"PMPROXY_PORT=-1", []string{"PMPROXY_PORT=-1"}, nil, ""},
		{"bad option", nil, []string{"-p", p, "-Z"}, ""},
		// the log on standard error, after libpcp's complaint in
		// strerror's words
		{"log in a missing directory", nil, []string{"-p", p, "-l", filepath.Join(filepath.Dir(nosock), "pmproxy.log")}, ""},
		{"-p and PMPROXY_PORT", []string{"PMPROXY_PORT=" + p}, []string{"-p", q}, ""},
		{"-p 0", nil, []string{"-p", "0"}, ""},
		{"repeated ports", []string{"PMPROXY_PORT=" + q}, []string{"-p", p + "," + q + "," + p}, ""},
		{"two interfaces", nil, []string{"-i", "127.0.0.1", "-i", "::1", "-p", p}, ""},
		{"interface and port repeated", nil, []string{"-i", "127.0.0.1", "-p", p + "," + p}, ""},
		{"PMPROXY_LOCAL and -i", []string{"PMPROXY_LOCAL=1"}, []string{"-i", "::1", "-p", p}, ""},
		{"-p after PMPROXY_PORT=x", []string{"PMPROXY_PORT=x"}, []string{"-p", p}, ""},
		// -c after runForLog's absolute one: a relative name is a
		// program's, pmproxy.conf's files not there, Redis tried
		{"relative -c", []string{home}, append([]string{"-p", p, "-c", "pmproxy.conf"}, redis...), tried},
		{"-c of a missing file", []string{home}, append([]string{"-p", p, "-c", "/nonexistent/pmproxy.conf"}, redis...), tried},
		// ./pmproxy.conf, Redis disabled there
		{"-c of a program", []string{home}, append([]string{"-p", p, "-c", "pmproxy"}, redis...), ""},
		{"PMPROXY_MAXPENDING", []string{"PMPROXY_MAXPENDING= 12x", "PMPROXY_LOCAL=1"}, []string{"-p", p}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			ports := []int{port, busy, other}
			want := runForLog(t, theirs, ports, c.env, c.until, c.args...)
			got := runForLog(t, ours, ports, c.env, c.until, c.args...)
			if got != want {
				t.Errorf("ours: exit %d, stderr:\n%s\nlog:\n%s\nPCP's: exit %d, stderr:\n%s\nlog:\n%s",
					got.status, got.stderr, got.log, want.status, want.stderr, want.log)
			}
		})
	}
}
