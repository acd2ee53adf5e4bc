package main

import (
	"bytes"
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

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

var (
	notifyStamp = regexp.MustCompile(`(?m)^\[[^]]+\] pmcd\(\d+\) `)
	portRow     = regexp.MustCompile(`(?m)^  (ok |err) +-?\d+ +(\d+)? `)
)

// busyRun starts a pmcd (PCP's or ours) with its IPv4 port held by
// another socket and a private Unix socket, waits until its log shows
// the request port table, stops it, and returns its standard error and
// that table, masked.
func busyRun(t *testing.T, bin string, port int) (stderr, table string) {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{"run", "log", "tmp"} {
		os.Mkdir(filepath.Join(dir, d), 0o755)
	}
	conf := filepath.Join(dir, "pmcd.conf")
	os.WriteFile(conf, []byte("pmcd\t2\tdso\tpmcd_init\t/var/lib/pcp/pmdas/pmcd/pmda_pmcd.so\n"), 0o644)
	logPath := filepath.Join(dir, "log", "pmcd.log")
	cmd := exec.Command(bin, "-f", "-p", strconv.Itoa(port), "-c", conf, "-n", "/var/lib/pcp/pmns/root_pmcd",
		"-s", filepath.Join(dir, "run", "pmcd.socket"), "-l", logPath, "-x", filepath.Join(dir, "fatal"))
	cmd.Env = append(withoutPCP(os.Environ()), "PCP_RUN_DIR="+filepath.Join(dir, "run"), "PCP_LOG_DIR="+filepath.Join(dir, "log"),
		"PCP_TMP_DIR="+filepath.Join(dir, "tmp"), "PCP_VAR_DIR="+filepath.Join(dir, "tmp"), "PMCD_ROOT_AGENT=0")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var log string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		b, _ := os.ReadFile(logPath)
		if log = string(b); strings.Contains(log, "pmcd request port(s):") && strings.Count(log[strings.Index(log, "pmcd request port(s):"):], "\n") >= 6 {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	i := strings.Index(log, "pmcd request port(s):")
	if i < 0 {
		t.Fatalf("%s: no request port table; stderr:\n%s\nlog:\n%s", bin, errb.String(), log)
	}
	table = log[i:]
	var rows []string
	for _, l := range strings.Split(table, "\n") {
		if strings.HasPrefix(l, "pmcd") || strings.HasPrefix(l, "  ") {
			rows = append(rows, l)
		} else {
			break
		}
	}
	table = portRow.ReplaceAllString(strings.Join(rows, "\n"), "  $1 FD PORT ")
	table = strings.ReplaceAll(table, dir, "DIR")
	return notifyStamp.ReplaceAllString(errb.String(), "[DATE] pmcd(PID) "), table
}

// TestPortTakenLikePCP starts PCP's pmcd and ours with their IPv4 port
// held by another socket (as another daemon would): both report it on
// standard error in PCP's words ("may already be running") and serve on
// the sockets they could open, the IPv6 one and their own Unix socket,
// their request port tables showing the one that failed.
func TestPortTakenLikePCP(t *testing.T) {
	in := testbed.Need(t)
	ours := buildPMCD(t)
	l, err := net.Listen("tcp4", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	wantErr, wantTable := busyRun(t, in.PMCD, port)
	gotErr, gotTable := busyRun(t, ours, port)
	t.Logf("PCP's standard error:\n%s\nits table:\n%s", wantErr, wantTable)
	if gotErr != wantErr {
		t.Errorf("standard error differs\n%s", clitest.Diff(wantErr, gotErr))
	}
	if gotTable != wantTable {
		t.Errorf("request port table differs\n%s", clitest.Diff(wantTable, gotTable))
	}
}
