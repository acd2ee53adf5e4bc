package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testbed.RemoveBuilt()
	os.Exit(code)
}

// buildPMCD builds this command for tests that need it as a process.
func buildPMCD(t *testing.T) string { return pcptest.GoCommand(t, ".") }

// privateDirs makes a directory for one pmcd run with the run, tmp and
// log directories its PCP_RUN_DIR, PCP_TMP_DIR and logs point into.
func privateDirs(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{"run", "tmp", "log"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runMasked runs the pmcd program bin with -f and args, in a private
// environment (PCP_RUN_DIR, PCP_TMP_DIR and PCP_LOG_DIR of its own, no
// PMCD_* from this process, env added), in a private network namespace
// where one can be made, and stopped after a minute: a pmcd that starts
// where it should have refused touches nothing of the system's. It gives
// what was printed, its path, directory and pmNotifyErr's time and
// process masked, and its exit status.
func runMasked(t *testing.T, bin string, env, args []string) string {
	t.Helper()
	dir := privateDirs(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	argv := append([]string{bin, "-f"}, args...)
	if ns := privateNet(t); ns != nil {
		argv = append(append([]string{}, ns...), argv...)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(append(withoutPMCDVars(os.Environ()), "PCP_RUN_DIR="+filepath.Join(dir, "run"),
		"PCP_TMP_DIR="+filepath.Join(dir, "tmp"), "PCP_LOG_DIR="+filepath.Join(dir, "log")), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Errorf("pmcd %v ran until stopped", args)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	text := strings.ReplaceAll(strings.ReplaceAll(out.String(), bin, "pmcd"), dir, "DIR")
	return stamp.ReplaceAllString(text, "[TIME] pmcd(PID)") + "status " + strconv.Itoa(code)
}

// TestUsageLikePCP compares the usage message and status of -? and of a
// bad option with PCP's pmcd.
func TestUsageLikePCP(t *testing.T) {
	t.Parallel()
	in := testbed.Need(t)
	ours := buildPMCD(t)
	for _, args := range [][]string{{"-?"}, {"-Z"}, {"-L", "0"}, {"-t", "x"}, {"extra"},
		// -p's ports are strtol's, base 0, cut to an int.
		{"-p", "2147483648"}, {"-p", "0b1"}, {"-p", "1_0"}, {"-p", "x"}, {"-p", "1,-2"}, {"-p", "0x"},
		// -L is (int)strtol(arg, NULL, 0): trailing text ignored (so
		// "1x" is taken, and -v ends the run at the missing file), the
		// base from the prefix, cut to an int.
		{"-L", "4294967296"}, {"-L", "0x"}, {"-L", "-0x10"}, {"-L", "1x", "-v", "-c", "/nonexistent"},
		{"-L", "0x10zz", "-v", "-c", "/nonexistent"}} {
		if got, want := runMasked(t, ours, nil, args), runMasked(t, in.PMCD, nil, args); got != want {
			t.Errorf("pmcd %v:\nours:\n%s\nPCP's:\n%s", args, got, want)
		}
	}
}

// pmcdLine is pmcd.conf's line for pmcd's own agent.
const pmcdLine = "pmcd 2 dso pmcd_init /var/lib/pcp/pmdas/pmcd/pmda_pmcd.so\n"

// TestVerifyLikePCP runs pmcd -v on good and bad configurations with
// PCP's pmcd and ours: the same status, and the same messages.
func TestVerifyLikePCP(t *testing.T) {
	t.Parallel()
	in := testbed.Need(t)
	ours := buildPMCD(t)
	dir := t.TempDir()
	for _, text := range []string{
		"pmcd 2 dso pmcd_init /var/lib/pcp/pmdas/pmcd/pmda_pmcd.so\n",
		"pmcd 2 dso pmcd_init /var/lib/pcp/pmdas/pmcd/pmda_pmcd.so\n[access]\nallow localhost : fetch\n",
		"a x dso e /p\n",
		// libpcp's own complaints come through pmNotifyErr, stamped;
		// the parser's lines are bare.
		pmcdLine + "[access]\nallow nosuch.host.invalid : all;\n",
		pmcdLine + "[access]\nallow localhost : all;\nallow group nosuchgroup : all;\n",
		pmcdLine + "[access]\nallow users nosuchuser : all;\nallow localhost : all;\n",
		pmcdLine + "[access]\nallow localhost : all;\nallow localhost : all except fetch;\n",
		pmcdLine + "[access]\nallow 1.2.3.4/33 : all;\nallow 300.1.1.1 : all;\nallow localhost : all;\n",
		"", "garbage\n",
		// Files that cannot be read: a missing one, a directory.
		"missing", "directory",
	} {
		conf := filepath.Join(dir, "pmcd.conf")
		os.RemoveAll(conf)
		switch text {
		case "missing":
		case "directory":
			if err := os.Mkdir(conf, 0o755); err != nil {
				t.Fatal(err)
			}
		default:
			if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		run := func(bin string) (string, int) {
			out, err := exec.Command(bin, "-v", "-c", conf).CombinedOutput()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			return stamp.ReplaceAllString(string(out), "[TIME] pmcd(PID)"), code
		}
		gotOut, gotCode := run(ours)
		wantOut, wantCode := run(in.PMCD)
		if gotCode != wantCode || gotOut != wantOut {
			t.Errorf("pmcd -v on %q: ours %d %q, PCP's %d %q", text, gotCode, gotOut, wantCode, wantOut)
		}
	}
}

// TestFatalFile starts pmcd on a busy port: it must fail, with PCP's
// note in -x's file, without having made a log (PCP's pmcd binds before
// it opens its log, and says then that the log has vanished).
func TestFatalFile(t *testing.T) {
	dir := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	ns := filepath.Join(dir, "root")
	conf := filepath.Join(dir, "pmcd.conf")
	os.WriteFile(ns, []byte("root {\n}\n"), 0o644)
	os.WriteFile(conf, []byte("pmcd 2 dso pmcd_init /p.so\n"), 0o644)
	fatal, logPath := filepath.Join(dir, "fatal"), filepath.Join(dir, "pmcd.log")
	err = run(context.Background(), []string{"-f", "-i", "127.0.0.1", "-p", itoa(port), "-n", ns, "-c", conf,
		"-s", "", "-l", logPath, "-x", fatal}, nil)
	if err == nil {
		t.Fatal("pmcd started on a busy port")
	}
	b, _ := os.ReadFile(fatal)
	if string(b) != "NOTE: pmcd not started due to errors!  Log file \""+logPath+"\" has vanished!\n" {
		t.Errorf("fatal file:\n%s", b)
	}
	if _, err := os.Stat(logPath); !os.IsNotExist(err) {
		t.Errorf("a pmcd that could not listen made its log: %v", err)
	}
}

// TestSocketNotTaken starts a pmcd on a Unix socket another server
// answers on: it must leave that socket alone and still serve TCP.
func TestSocketNotTaken(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sock := filepath.Join(dir, "pmcd.socket")
	other, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ns := filepath.Join(dir, "root")
	conf := filepath.Join(dir, "pmcd.conf")
	os.WriteFile(ns, []byte("root {\n}\n"), 0o644)
	os.WriteFile(conf, []byte("pmcd 2 dso pmcd_init /p.so\n"), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-p", "0", "-i", "127.0.0.1", "-n", ns, "-c", conf, "-s", sock,
			"-l", filepath.Join(dir, "pmcd.log")}, ready)
	}()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("run: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("pmcd did not start")
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
	if _, err := os.Stat(sock); err != nil {
		t.Errorf("the other server's socket was removed: %v", err)
	}
	logText, _ := os.ReadFile(filepath.Join(dir, "pmcd.log"))
	if !strings.Contains(string(logText), sock+": another process accepts connections on it") {
		t.Errorf("log does not say why there is no Unix socket:\n%s", logText)
	}
}

// stamp matches the time and process id before a logged message.
var stamp = regexp.MustCompile(`\[[^\]]*\] pmcd\(\d+\)`)

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + itoa(n%10)
}
