package main

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestTrivialDSO runs pmcd with a pmcd.conf naming the Go trivial agent
// on a dso line and has PCP's pminfo fetch trivial.time from it.
func TestTrivialDSO(t *testing.T) {
	in := testbed.Need(t)
	pminfo, err := in.Tool("pminfo")
	if err != nil {
		t.Fatal(err)
	}
	host := startTrivial(t, "-t", "2")
	out, err := exec.Command(pminfo, "-h", host, "-f", "trivial.time").CombinedOutput()
	if err != nil || !regexp.MustCompile(`^\ntrivial.time\n    value \d+\n$`).Match(out) {
		t.Errorf("pminfo -f trivial.time: %v\n%s", err, out)
	}
}

func TestConfErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.conf")
	if err := os.WriteFile(bad, []byte("a 1 fifo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ns := filepath.Join(dir, "root")
	if err := os.WriteFile(ns, []byte("root {\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ conf, want string }{
		{bad, "pmcd config[line 1]: Error: expected `dso', `socket' or `pipe'"},
		{filepath.Join(dir, "missing.conf"), "ParseInitAgents: open " + filepath.Join(dir, "missing.conf") + ": No such file or directory"},
	}
	for _, c := range cases {
		// The complaint is in the log, as PCP's pmcd writes it there.
		logPath := filepath.Join(dir, "pmcd.log")
		err := run(context.Background(), []string{"-p", "0", "-i", "127.0.0.1", "-n", ns, "-c", c.conf, "-s", "", "-l", logPath, "-x", filepath.Join(dir, "fatal")}, nil)
		log, _ := os.ReadFile(logPath)
		if err == nil || !strings.Contains(string(log), c.want+"\n") {
			t.Errorf("-c %s: %v, log:\n%s\nwant %q", c.conf, err, log, c.want)
		}
	}
}

// startTrivial runs pmcd's run in the background, with PCP's trivial
// agent as a DSO on a free loopback port and extra options, until the
// test ends (it then waits for run to return without error), and returns
// the host:port clients reach it at.
func startTrivial(t *testing.T, extra ...string) string {
	t.Helper()
	dir := t.TempDir()
	ns := filepath.Join(dir, "root")
	conf := filepath.Join(dir, "pmcd.conf")
	if err := os.WriteFile(ns, []byte("root {\n\ttrivial\n}\ntrivial {\n\ttime\t250:0:0\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(conf, []byte("trivial\t250\tdso\ttrivial_init\t/var/lib/pcp/pmdas/trivial/pmda_trivial.so\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-p", "0", "-i", "127.0.0.1", "-n", ns, "-c", conf}
	args = append(append(args, extra...), "-s", "", "-l", filepath.Join(dir, "pmcd.log"))
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- run(ctx, args, ready) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	})
	select {
	case addr := <-ready:
		return "localhost:" + strings.TrimPrefix(addr.String(), "127.0.0.1:")
	case err := <-done:
		done <- err // for the cleanup
		t.Fatalf("run: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("pmcd did not start")
	}
	return ""
}
