package main

import (
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
)

// backgroundRun is what a pmproxy started in daemon mode (no -f) did:
// the started process's exit status, whether the pmproxy that served
// was another process leading a session of its own, where its standard
// input, output and error went, its Uid line, whether its pid file and
// its log named it, and its log, masked, once -T had ended it.
type backgroundRun struct {
	status       int
	own, session bool
	fds          string
	uid          string
	named        bool
	log          string
}

// runBackground starts bin as root in daemon mode with -U nobody and
// -T 3 on a free port, PCP_RUN_DIR and PCP_TMP_DIR under a fresh
// directory, and follows the pmproxy that serves until it ends.
func runBackground(t *testing.T, bin, shared string) backgroundRun {
	t.Helper()
	dir, run, tmp, conf := daemonDirs(t, shared, "pmproxy-background-")
	logPath := filepath.Join(dir, "pmproxy.log")
	port := testbed.ReservedPort(t)
	// -T ends the daemon, which the test cannot otherwise bound: it
	// is no child of the test's.
	cmd := exec.Command(bin, "-U", "nobody", "-A", "-T", "3", "-p", strconv.Itoa(port), "-c", conf, "-l", logPath, "-s", filepath.Join(run, "pmproxy.socket"))
	cmd.Env = daemonEnv(run, tmp)
	var r backgroundRun
	if err := pcptest.StartKept(cmd); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	r.status = cmd.ProcessState.ExitCode()
	// Polled; the deadlines only bound a broken run.
	var pid string
	for deadline := time.Now().Add(60 * time.Second); pid == ""; time.Sleep(20 * time.Millisecond) {
		if b, _ := os.ReadFile(logPath); strings.Contains(string(b), "request port(s)") {
			p, _ := os.ReadFile(filepath.Join(run, "pmproxy.pid"))
			pid = strings.TrimSpace(string(p))
			r.named = pid != "" && strings.Contains(string(b), "PID = "+pid+",")
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: no daemon served", bin)
		}
	}
	r.own = pid != strconv.Itoa(cmd.Process.Pid)
	if stat, err := os.ReadFile(filepath.Join("/proc", pid, "stat")); err == nil {
		// pid (comm) state ppid pgrp session ...
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 {
			f := strings.Fields(string(stat)[i+1:])
			r.session = len(f) > 3 && f[3] == pid
		}
	}
	var fds []string
	for _, fd := range []string{"1", "2"} {
		l, err := os.Readlink(filepath.Join("/proc", pid, "fd", fd))
		fds = append(fds, fd+"="+strings.ReplaceAll(l, logPath, "LOG")+fmt.Sprint(err != nil))
	}
	r.fds = strings.Join(fds, " ")
	r.uid = procStatus(pid, "Uid")
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(logPath)
		if strings.Contains(string(b), "Log finished") {
			r.log = maskLog(string(b), dir, []int{port})
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the daemon did not end: %s", bin, b)
		}
	}
	return r
}

// TestBackgroundLikePCP: started as root without -f, PCP's pmproxy and
// ours go into the background: the process started exits 0 at once, and
// another, leading its own session, serves as the user -U names, its
// standard output and error in its log, its pid in its pid file and its
// log; at -T's end the logs are the same (no Shutdown line at -T).
func TestBackgroundLikePCP(t *testing.T) {
	t.Parallel()
	theirs, ours, shared := rootPair(t)
	want := runBackground(t, theirs, shared)
	got := runBackground(t, ours, shared)
	if got != want {
		t.Errorf("ours differs from PCP's:\n ours  %+v\n PCP's %+v", got, want)
	}
	if !want.own || !want.session || want.status != 0 {
		t.Errorf("PCP's pmproxy did not go into the background: %+v", want)
	}
}
