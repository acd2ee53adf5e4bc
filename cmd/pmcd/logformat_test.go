package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

var (
	// what changes between two pmcds: process ids, descriptors, ports,
	// private directories and the DSO entry point's address
	logPID  = regexp.MustCompile(`(PID = |pmcd\()\d+`)
	logRow  = regexp.MustCompile(`(?m)^(\S+ +\d+) +\d+ +\d+ +\d+ `)
	logPort = regexp.MustCompile(`(?m)^  ok +\d+ +(\d+)? `)
	logTmp  = tempChild()
	logAddr = regexp.MustCompile(` \[0x[0-9a-f]+\]`)
)

// tempChild matches a directory made in the temporary directory, the
// testbeds' and t.TempDir's, wherever TMPDIR puts it: the two pmcds have
// directories of their own, and the path they log is not the test's to
// choose.
func tempChild() *regexp.Regexp {
	dir := strings.TrimSuffix(filepath.Clean(os.TempDir()), "/")
	return regexp.MustCompile(regexp.QuoteMeta(dir) + `/[^ /]+`)
}

// startLog is a pmcd log from the agent table on, masked.
func startLog(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "\nactive agent")
	j := strings.Index(s, "pmcd request port(s):")
	if i < 0 || j < 0 {
		t.Fatalf("%s has no agent or port table:\n%s", path, s)
	}
	// The port table is the last thing either logs at start: the rest of
	// the log is compared too.
	s = s[i:]
	s = logPID.ReplaceAllString(s, "${1}PID")
	s = logRow.ReplaceAllString(s, "$1 PID IN OUT ")
	s = logPort.ReplaceAllString(s, "  ok FD PORT ")
	s = logTmp.ReplaceAllString(s, "/TMP")
	return logAddr.ReplaceAllString(s, " [0xADDR]")
}

// TestStartLogLikePCP compares what PCP's pmcd and ours write to the log
// as they start, with pmcd's DSO and the sample agent on a pipe, without
// access control, with PCP's shipped policy and with user and group
// statements (users and groups with members, without, and the "*"
// entries): the agent table, the access lists, the pid line and the
// request ports. DSO agents, pmcd's own and Linux's, show their interface
// version (6 and 7) and entry point address; the address is masked, as
// it is where PCP's dlopen put the library and, for ours, where the Go
// constructor registered for the entry point is, but it must be there.
func TestStartLogLikePCP(t *testing.T) {
	linuxDSO := []testbed.Agent{testbed.PMCDAgent(), testbed.SampleAgent(),
		testbed.DSOAgent("linux", 60, "$PCP_PMDAS_DIR/linux/pmda_linux.so", "linux_init", "$PCP_VAR_DIR/pmns/root_linux")}
	cases := []struct {
		access, ready string
		agents        []testbed.Agent
	}{
		{"", "", nil},
		{"", "", linuxDSO},
		{"disallow \".*\" : store;\ndisallow \":*\" : store;\nallow \"local:*\" : all;\n", "", nil},
		{"allow user root : all;\nallow user daemon : fetch;\nallow group root : all;\ndisallow group adm : store;\n" +
			"allow group sys : fetch;\nallow users nobody, root : maximum 3 connections;\nallow hosts localhost : all;\n", "unix:", nil},
		{"allow user * : fetch;\nallow group * : all;\ndisallow user daemon : all;\nallow group root,daemon : all except store;\n", "unix:", nil},
	}
	for _, c := range cases {
		opts := testbed.Options{Access: c.access, ReadyHost: c.ready, Agents: c.agents}
		theirs := testbed.StartPMCD(t, opts)
		ours := testbed.StartGoPMCD(t, opts)
		want, got := startLog(t, theirs.LogPath()), startLog(t, ours.LogPath())
		if got != want {
			t.Errorf("start of the log with access %q differs\n%s", c.access, clitest.Diff(want, got))
		}
	}
}

var (
	logStampRe = regexp.MustCompile(`(?m)^\[[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d\] pmcd\(\d+\) `)
)

// stopLines sends pmcd SIGTERM from this process and returns the lines
// of its log from the one saying so (with the sender: this process) to
// "pmcd Shutdown", the stamps masked.
func stopLines(t *testing.T, p *testbed.PMCD) string {
	t.Helper()
	if err := syscall.Kill(p.PID(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	s := waitLog(t, p, "pmcd Shutdown")
	i := strings.Index(s, "caught SIGTERM")
	j := strings.Index(s, "pmcd Shutdown")
	if i < 0 || j < i {
		t.Fatalf("%s: no caught SIGTERM and Shutdown lines:\n%s", p.LogPath(), s)
	}
	i = strings.LastIndex(s[:i], "\n") + 1
	s = s[i : j+strings.Index(s[j:], "\n")+1]
	return logStampRe.ReplaceAllString(s, "[DATE] pmcd(PID) ")
}

// waitLog waits for what to be in p's log and returns the log.
func waitLog(t *testing.T, p *testbed.PMCD, what string) string {
	t.Helper()
	var s string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		b, _ := os.ReadFile(p.LogPath())
		if s = string(b); strings.Contains(s, what) {
			return s
		}
	}
	t.Fatalf("%s: no %q after 30s:\n%s", p.LogPath(), what, s)
	return ""
}

// TestStopLogLikePCP stops PCP's pmcd and ours with SIGTERM: both log
// that they caught it and from whom ("from pid=N uid=N", this test's
// process), each agent process's cleanup ("CleanupAgent ..." and how it
// ended) and that they shut down, in pmNotifyErr's form.
func TestStopLogLikePCP(t *testing.T) {
	theirs := testbed.StartPMCD(t, testbed.Options{})
	ours := testbed.StartGoPMCD(t, testbed.Options{})
	want, got := stopLines(t, theirs), stopLines(t, ours)
	if from := fmt.Sprintf("from pid=%d uid=%d", os.Getpid(), os.Getuid()); !strings.Contains(want, from) {
		t.Errorf("PCP's log does not say the signal came %s:\n%s", from, want)
	}
	if !strings.Contains(want, "Cleanup \"sample\" agent") {
		t.Errorf("PCP's log has no cleanup of the sample agent:\n%s", want)
	}
	if got != want {
		t.Errorf("stop lines differ\n%s", clitest.Diff(want, got))
	}
}

var (
	agentRowPID = regexp.MustCompile(`(?m)^sample +29 +(\d+) `)
	cleanupFD   = regexp.MustCompile(`fd=\d+`)
	exitPart    = regexp.MustCompile(`(?m)^(Cleanup .*: unconfigured)(, exit\(0\))?$`)
)

// cleanupLines are the "CleanupAgent ..." lines of p's log and the line
// after each, stamps masked.
func cleanupLines(s string) string {
	var b strings.Builder
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasSuffix(l, "Info: CleanupAgent ...") && i+1 < len(lines) {
			b.WriteString(l + "\n" + lines[i+1] + "\n")
		}
	}
	return cleanupFD.ReplaceAllString(logStampRe.ReplaceAllString(b.String(), "[DATE] pmcd(PID) "), "fd=FD")
}

// TestCleanupLogLikePCP has the sample agent die by SIGKILL and be asked
// for a value, then drops the Linux agent from pmcd.conf with SIGHUP, under PCP's pmcd
// and ours (restarts off): both log PCP's CleanupAgent lines, "protocol
// failure for fd=N, signal(9)" and "unconfigured". The descriptor is
// masked (the two daemons number theirs differently), and so is whether
// PCP adds ", exit(0)" to the second: that depends on whether the agent
// exited within the 10 ms PCP waits.
func TestCleanupLogLikePCP(t *testing.T) {
	run := func(p *testbed.PMCD) string {
		m := agentRowPID.FindStringSubmatch(waitLog(t, p, "pmcd request port(s)"))
		if m == nil {
			t.Fatalf("%s: no sample agent in the agent table", p.LogPath())
		}
		pid, _ := strconv.Atoi(m[1])
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		// Like PCP's, our pmcd finds the agent gone at the next request.
		p.Run("pminfo", "-f", "sample.long.one")
		waitLog(t, p, "Cleanup \"sample\" agent")
		conf, err := os.ReadFile(p.ConfPath())
		if err != nil {
			t.Fatal(err)
		}
		var kept []string
		for _, l := range strings.Split(string(conf), "\n") {
			if !strings.HasPrefix(l, "linux") {
				kept = append(kept, l)
			}
		}
		if err := os.WriteFile(p.ConfPath(), []byte(strings.Join(kept, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		// a SIGHUP within the second of the file's last change could
		// go unnoticed by a check of its modification time
		future := time.Now().Add(2 * time.Second)
		os.Chtimes(p.ConfPath(), future, future)
		if err := syscall.Kill(p.PID(), syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		return exitPart.ReplaceAllString(cleanupLines(waitLog(t, p, "unconfigured")), "$1")
	}
	opts := testbed.Options{Env: []string{"PMCD_RESTART_AGENTS=0"},
		Agents: []testbed.Agent{testbed.PMCDAgent(), testbed.SampleAgent(), testbed.LinuxAgent()}}
	want := run(testbed.StartPMCD(t, opts))
	got := run(testbed.StartGoPMCD(t, opts))
	if got != want {
		t.Errorf("cleanup lines differ\n%s", clitest.Diff(want, got))
	}
}

// TestQuotedAgentLineLikePCP serves a pmcd.conf whose agent line uses
// PCP's quoting: a quoted name, domain and keyword, arguments with blanks
// in quotes, "\#" and "\"" escapes, an empty quoted argument, a quoted
// word run into another, a comment. Both pmcds show the same agent table
// (PCP's form of the command: quotes around arguments with blanks) and
// the agent gets the arguments PCP's gives it: its log lands at the path
// with a blank.
func TestQuotedAgentLineLikePCP(t *testing.T) {
	agents := []testbed.Agent{testbed.PMCDAgent(), testbed.PipeAgent("quoted", 29, "$PCP_VAR_DIR/pmns/root_pmcd", "/bin/true")}
	run := func(start func(testing.TB, testbed.Options) *testbed.PMCD) string {
		dir := t.TempDir()
		logPath := filepath.Join(dir, "agent log")
		// after startLog's masking, the part of dir that differs
		shown := strings.TrimPrefix(logTmp.ReplaceAllString(dir, "/TMP"), "/TMP")
		conf := filepath.Join(dir, "pmcd.conf")
		text := "pmcd 2 dso pmcd_init /var/lib/pcp/pmdas/pmcd/pmda_pmcd.so\n" +
			`"quoted" "29" pipe "binary" /var/lib/pcp/pmdas/sample/pmdasample "-d 29" -l "` + logPath + `" x\#y "a\"b" "" "c"d # comment` + "\n"
		if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		p := start(t, testbed.Options{Agents: agents, Args: []string{"-c", conf}})
		if _, err := os.Stat(logPath); err != nil {
			t.Errorf("the agent's log is not where its quoted argument says: %v", err)
		}
		return strings.ReplaceAll(startLog(t, p.LogPath()), shown, "/DIR")
	}
	want, got := run(testbed.StartPMCD), run(testbed.StartGoPMCD)
	if !strings.Contains(want, `"-d 29"`) {
		t.Errorf("PCP's agent table does not show the quoted argument:\n%s", want)
	}
	if got != want {
		t.Errorf("agent tables differ\n%s", clitest.Diff(want, got))
	}
}

// TestConfErrorsLogLikePCP starts PCP's pmcd and ours on a pmcd.conf
// whose first agent lines are bad and last good: both start, and both
// log the errors as PCP does, bare, before the agent table.
func TestConfErrorsLogLikePCP(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "pmcd.conf")
	text := "bad 7 pipe\nx 9 dso e /rel.so extra\n\"q 10 pipe binary /bin/x\" 11\npmcd 2 dso pmcd_init /var/lib/pcp/pmdas/pmcd/pmda_pmcd.so\n"
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	head := func(p *testbed.PMCD) string {
		b, err := os.ReadFile(p.LogPath())
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		i, j := strings.Index(s, "\n"), strings.Index(s, "\nactive agent")
		if i < 0 || j < i {
			t.Fatalf("%s: no agent table:\n%s", p.LogPath(), s)
		}
		return s[i:j]
	}
	opts := testbed.Options{Args: []string{"-c", conf}, Agents: []testbed.Agent{testbed.PMCDAgent()}}
	want, got := head(testbed.StartPMCD(t, opts)), head(testbed.StartGoPMCD(t, opts))
	if !strings.Contains(want, "\npmcd config[line 1]: Error:") {
		t.Errorf("PCP's log does not report line 1 bare:\n%s", want)
	}
	if got != want {
		t.Errorf("configuration errors logged otherwise\n%s", clitest.Diff(want, got))
	}
}
