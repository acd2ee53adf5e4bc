package main

import (
	"fmt"
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

// startPlain starts the pmcd program bin in private directories with
// only pmcd's own agent and no -n, and waits until it serves; done gives
// Wait's result.
func startPlain(t *testing.T, bin string) (cmd *exec.Cmd, done chan error, logPath string) {
	t.Helper()
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	dir := privateDirs(t)
	conf := filepath.Join(dir, "pmcd.conf")
	if err := os.WriteFile(conf, []byte("pmcd\t2\tdso\tpmcd_init\t/var/lib/pcp/pmdas/pmcd/pmda_pmcd.so\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	logPath = filepath.Join(dir, "log", "pmcd.log")
	cmd = exec.Command(bin, "-f", "-A", "-p", strconv.Itoa(port), "-c", conf,
		"-s", filepath.Join(dir, "run", "pmcd.socket"), "-l", logPath)
	cmd.Env = append(os.Environ(), "PCP_RUN_DIR="+filepath.Join(dir, "run"),
		"PCP_TMP_DIR="+filepath.Join(dir, "tmp"), "PCP_LOG_DIR="+filepath.Join(dir, "log"))
	cmd.Dir = dir // where a core would go
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := pcptest.StartKept(cmd); err != nil {
		t.Fatal(err)
	}
	done = make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	if !waitText(logPath, "pmcd request port(s):") {
		t.Fatalf("%s never served", bin)
	}
	return cmd, done, logPath
}

// waitText waits up to a minute for what to be in the file at path.
func waitText(path, what string) bool {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, _ := os.ReadFile(path); strings.Contains(string(b), what) {
			return true
		}
	}
	return false
}

// endedBy starts bin as startPlain does, sends it sig and says how it
// ended and whether its log was finished.
func endedBy(t *testing.T, bin string, sig syscall.Signal) string {
	t.Helper()
	cmd, done, logPath := startPlain(t, bin)
	var err error
	cmd.Process.Signal(sig)
	select {
	case err = <-done:
		done <- err // for the cleanup
	case <-time.After(time.Minute):
		return "still running"
	}
	b, _ := os.ReadFile(logPath)
	finished := strings.Contains(string(b), "Log finished")
	return fmt.Sprintf("%s, log finished %v", pcptest.HowEnded(cmd.ProcessState), finished)
}

// TestDefaultSignalsLikePCP sends PCP's pmcd and ours the signals PCP's
// sets no handler for: SIGUSR1 and SIGALRM end both at once, their logs
// unfinished, and SIGXFSZ too (with a core where the limit allows one).
func TestDefaultSignalsLikePCP(t *testing.T) {
	const theirs = "/usr/lib/pcp/bin/pmcd"
	if _, err := os.Stat(theirs); err != nil {
		pcptest.Missing(t, "PCP's pmcd: "+err.Error())
	}
	ours := buildPMCD(t)
	sigs := []syscall.Signal{syscall.SIGUSR1, syscall.SIGALRM}
	if pcptest.NoCores(t) {
		sigs = append(sigs, syscall.SIGXFSZ)
	}
	for _, sig := range sigs {
		want, got := endedBy(t, theirs, sig), endedBy(t, ours, sig)
		if !strings.HasPrefix(want, "killed by "+sig.String()) {
			t.Errorf("PCP's pmcd and %v: %s", sig, want)
		}
		if got != want {
			t.Errorf("%v: ours %s, PCP's %s", sig, got, want)
		}
	}
}

// TestHUPDefaultNamespaceLikePCP sends SIGHUP to PCP's pmcd and ours run
// without -n: both name the namespace they load then "DEFAULT" in the
// log's line about it.
func TestHUPDefaultNamespaceLikePCP(t *testing.T) {
	t.Parallel()
	const theirs = "/usr/lib/pcp/bin/pmcd"
	if _, err := os.Stat(theirs); err != nil {
		pcptest.Missing(t, "PCP's pmcd: "+err.Error())
	}
	line := func(bin string) string {
		cmd, _, logPath := startPlain(t, bin)
		cmd.Process.Signal(syscall.SIGHUP)
		if !waitText(logPath, "PMNS") {
			t.Fatalf("%s logged nothing about its namespace after SIGHUP", bin)
		}
		b, _ := os.ReadFile(logPath)
		for _, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, "PMNS") {
				return logStampRe.ReplaceAllString(l, "[DATE] pmcd(PID) ")
			}
		}
		return ""
	}
	want, got := line(theirs), line(buildPMCD(t))
	if !strings.Contains(want, `"DEFAULT"`) {
		t.Fatalf("PCP's pmcd: %q", want)
	}
	if got != want {
		t.Errorf("after SIGHUP: ours %q, PCP's %q", got, want)
	}
}

// TestUnopenableLogLikePCP starts PCP's pmcd and ours with a log that
// cannot be made: both say so in libpcp's words and log to standard
// error, header, tables and footer included.
func TestUnopenableLogLikePCP(t *testing.T) {
	t.Parallel()
	const theirs = "/usr/lib/pcp/bin/pmcd"
	if _, err := os.Stat(theirs); err != nil {
		pcptest.Missing(t, "PCP's pmcd: "+err.Error())
	}
	mask := func(s, dir string) string {
		s = strings.ReplaceAll(s, dir, "DIR")
		s = logStampRe.ReplaceAllString(s, "[DATE] pmcd(PID) ")
		s = logPID.ReplaceAllString(s, "${1}PID")
		s = logPort.ReplaceAllString(s, "  ok FD PORT ")
		s = logAddr.ReplaceAllString(s, " [0xADDR]")
		s = regexp.MustCompile(`from pid=\d+`).ReplaceAllString(s, "from pid=N")
		return regexp.MustCompile(`(started|finished) [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d \d{4}`).ReplaceAllString(s, "$1 DATE")
	}
	run := func(bin string) string {
		port, release, err := testbed.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		dir := privateDirs(t)
		conf := filepath.Join(dir, "pmcd.conf")
		if err := os.WriteFile(conf, []byte(pmcdLine), 0o644); err != nil {
			t.Fatal(err)
		}
		errPath := filepath.Join(dir, "stderr")
		errFile, err := os.Create(errPath)
		if err != nil {
			t.Fatal(err)
		}
		defer errFile.Close()
		cmd := exec.Command(bin, "-f", "-A", "-p", strconv.Itoa(port), "-c", conf,
			"-s", filepath.Join(dir, "run", "pmcd.socket"), "-l", filepath.Join(dir, "nodir", "pmcd.log"))
		cmd.Env = append(os.Environ(), "PCP_RUN_DIR="+filepath.Join(dir, "run"),
			"PCP_TMP_DIR="+filepath.Join(dir, "tmp"), "PCP_LOG_DIR="+filepath.Join(dir, "log"))
		cmd.Dir = dir
		cmd.Stdout, cmd.Stderr = errFile, errFile
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := pcptest.StartKept(cmd); err != nil {
			t.Fatal(err)
		}
		if !waitText(errPath, "pmcd request port(s):") {
			cmd.Process.Kill()
			cmd.Wait()
			b, _ := os.ReadFile(errPath)
			t.Fatalf("%s never served:\n%s", bin, b)
		}
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
		b, _ := os.ReadFile(errPath)
		return mask(string(b), dir)
	}
	want, got := run(theirs), run(buildPMCD(t))
	if !strings.Contains(want, "cannot open log") {
		t.Fatalf("PCP's pmcd:\n%s", want)
	}
	if got != want {
		t.Errorf("standard error with a log that cannot be made:\nPCP's:\n%s\nours:\n%s", want, got)
	}
}
