package main

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// unservableConf is a pmcd.conf like PCP's stock one: pmcd's own agent,
// which runs, and lines this pmcd cannot start: DSOs with no Go agent
// (as xfs and kvm have in PCP's agents) and a pipe agent whose
// program is not there.
const unservableConf = `pmcd	2	dso	pmcd_init	/var/lib/pcp/pmdas/pmcd/pmda_pmcd.so
xfs	11	dso	xfs_init	/var/lib/pcp/pmdas/xfs/pmda_xfs.so
kvm	95	dso	kvm_init	/var/lib/pcp/pmdas/kvm/pmda_kvm.so
nopipe	124	pipe	binary	/nonexistent/pmdanopipe -d 124
`

// unservable are the agent lines above that cannot be started, each with
// what names it in a message.
var unservable = map[string]string{
	"xfs":    "xfs_init",
	"kvm":    "kvm_init",
	"nopipe": "/nonexistent/pmdanopipe",
}

// TestUnservableAgents: pmcd with agents it cannot start reports each
// once in its log (a pipe agent in PCP's two lines), naming the line's
// entry point or command and why, and
// serves the rest (PCP's pmcd logs each failure once and carries on).
func TestUnservableAgents(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "pmcd.conf")
	ns := filepath.Join(dir, "root")
	logPath := filepath.Join(dir, "pmcd.log")
	if err := os.WriteFile(conf, []byte(unservableConf), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ns, []byte("root {\n\tpmcd\n}\npmcd {\n\tversion\t2:0:7\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-f", "-p", "0", "-i", "127.0.0.1", "-n", ns, "-c", conf, "-t", "2", "-s", "", "-l", logPath}, ready)
	}()
	var addr net.Addr
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("run: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("pmcd did not start")
	}
	host := "localhost:" + strings.TrimPrefix(addr.String(), "127.0.0.1:")
	c, err := pmapi.NewHostContext(ctx, host)
	if err != nil {
		t.Fatal(err)
	}
	var res pcp.Result
	if _, err := c.Fetch(ctx, []pcp.PMID{pcp.NewPMID(2, 0, 7)}, &res); err != nil || len(res.Sets) != 1 || res.Sets[0].NumVal != 1 {
		t.Errorf("fetch of pmcd.version: %v %+v", err, res.Sets)
	}
	c.Close()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
	logText, _ := os.ReadFile(logPath)
	for name, what := range unservable {
		var lines []string
		named := false
		for _, l := range strings.Split(string(logText), "\n") {
			if strings.Contains(l, `"`+name+`"`) || strings.Contains(l, " "+name+" PMDA") || strings.Contains(l, what) {
				lines = append(lines, l)
				named = named || strings.Contains(l, what)
			}
		}
		// A pipe agent's program that cannot run is two lines, as in
		// PCP's log: "error starting", then the pipe's end-of-file.
		want := 1
		if name == "nopipe" {
			want = 2
		}
		if len(lines) != want || !named {
			t.Errorf("agent %s reported in %d lines (want %d, naming %s):\n%s", name, len(lines), want, what, strings.Join(lines, "\n"))
		}
	}
}

// TestCheckUnservable: pmcd -v reports each agent line it could not
// start, once, on standard error, as a warning, and exits as PCP's pmcd -v
// does on the same file (0: PCP's loads nothing, so finds nothing wrong);
// a configuration whose agents can all be started exits 0 silently.
func TestCheckUnservable(t *testing.T) {
	in := testbed.Need(t)
	path, err := testbed.GoPMCDPath()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bad, good := filepath.Join(dir, "bad.conf"), filepath.Join(dir, "good.conf")
	if err := os.WriteFile(bad, []byte(unservableConf), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(good, []byte(strings.SplitAfter(unservableConf, "\n")[0]), 0o644); err != nil {
		t.Fatal(err)
	}
	status := func(err error) int {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		return 0
	}
	_, err = exec.Command(in.PMCD, "-v", "-c", bad).CombinedOutput()
	want := status(err)
	out, err := exec.Command(path, "-v", "-c", bad).CombinedOutput()
	if got := status(err); got != want {
		t.Errorf("pmcd -v on agents it cannot start: status %d, PCP's %d\n%s", got, want, out)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(unservable) {
		t.Errorf("pmcd -v printed %d lines, want %d:\n%s", len(lines), len(unservable), out)
	}
	for name, what := range unservable {
		if n := strings.Count(string(out), `"`+name+`"`); n != 1 || !strings.Contains(string(out), what) {
			t.Errorf("agent %s named %d times (want once, with %s):\n%s", name, n, what, out)
		}
	}
	out, err = exec.Command(path, "-v", "-c", good).CombinedOutput()
	if err != nil || len(out) != 0 {
		t.Errorf("pmcd -v on a configuration it can serve: %v\n%s", err, out)
	}
}
