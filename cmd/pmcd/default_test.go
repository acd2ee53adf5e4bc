package main

import (
	"bytes"
	"fmt"
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
	"github.com/gopcp/gopcp/mmv"
)

// TestNoArguments is the main job: pmcd with no arguments and nothing of
// PCP's configuration (pcp.conf empty, every PCP directory empty and
// private) runs its built-in agents with their own namespace, and PCP's
// pminfo and ours read this host's load, pmcd's version and a sample
// metric from it, identically.
func TestNoArguments(t *testing.T) {
	pcpInfo := pcptest.NeedTool(t, "pminfo")
	pmcdPath, err := testbed.GoPMCDPath()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ourInfo := pcptest.GoCommand(t, "github.com/gopcp/gopcp/cmd/pminfo")
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)

	// A machine without PCP: an empty pcp.conf and empty directories;
	// PMCD_PORT keeps this pmcd off the system's port 44321.
	empty := filepath.Join(dir, "pcp.conf")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"PCP_CONF=" + empty, "PMCD_PORT=" + strconv.Itoa(port)}
	for _, v := range []string{"PCP_RUN_DIR", "PCP_LOG_DIR", "PCP_TMP_DIR", "PCP_VAR_DIR", "PCP_PMDAS_DIR", "PCP_SYSCONF_DIR"} {
		d := filepath.Join(dir, strings.ToLower(v))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		env = append(env, v+"="+d)
	}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PCP_") && !strings.HasPrefix(kv, "PMCD_") {
			env = append(env, kv)
		}
	}
	cmd := exec.Command(pmcdPath)
	cmd.Env = env
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		if err := <-exited; err != nil {
			t.Errorf("pmcd: %v\n%s", err, stderr.Bytes())
		}
		// Without -f it records its pid where PCP's scripts look,
		// and removes it when it stops.
		if _, err := os.Stat(filepath.Join(dir, "pcp_run_dir", "pmcd.pid")); err == nil {
			t.Error("pmcd.pid left behind")
		}
	}()
	waitListening(t, port, exited, &stderr)

	// A Go program instrumented with package mmv, started after pmcd,
	// is served at once.
	mmvDir := filepath.Join(dir, "pcp_tmp_dir", "mmv")
	if err := os.Mkdir(mmvDir, 0o755); err != nil {
		t.Fatal(err)
	}
	reg, err := mmv.New("goapp", mmv.Options{Dir: mmvDir, Flags: mmv.Process})
	if err != nil {
		t.Fatal(err)
	}
	requests, err := reg.Counter("requests", mmv.MetricOptions{ShortHelp: "requests served"})
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Start(); err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	requests.Add(42)

	host := "localhost:" + strconv.Itoa(port)
	names := []string{"kernel.all.load", "pmcd.version", "sample.long.one", "mmv.goapp.requests"}
	info := func(prog string, env []string, args ...string) string {
		c := exec.Command(prog, append([]string{"-h", host}, args...)...)
		c.Env = env
		out, err := c.CombinedOutput()
		if err != nil {
			t.Errorf("%s %v: %v\n%s", prog, args, err, out)
		}
		return string(out)
	}
	// PCP's pminfo needs its own pcp.conf; ours runs in the empty
	// environment too.
	pcpEnv := withoutPCP(os.Environ())
	for _, flag := range []string{"-d", "-f"} {
		args := append([]string{flag}, names...)
		theirs := info(pcpInfo, pcpEnv, args...)
		ours := info(ourInfo, env, args...)
		load := regexp.MustCompile(`(inst \[\d+ or "\d+ minute"\] value )[0-9.e+-]+`)
		theirs, ours = load.ReplaceAllString(theirs, "${1}V"), load.ReplaceAllString(ours, "${1}V")
		if theirs != ours {
			t.Errorf("pminfo %s: PCP's and ours differ\nPCP's:\n%s\nours:\n%s", flag, theirs, ours)
		}
		if flag == "-f" {
			want := "\nkernel.all.load\n" +
				"    inst [1 or \"1 minute\"] value V\n" +
				"    inst [5 or \"5 minute\"] value V\n" +
				"    inst [15 or \"15 minute\"] value V\n" +
				"\npmcd.version\n    value \"6.0.3\"\n" +
				"\nsample.long.one\n    value 1\n" +
				"\nmmv.goapp.requests\n    value 42\n"
			if ours != want {
				t.Errorf("pminfo -f:\n%s\nwant:\n%s", ours, want)
			}
		}
	}
	// The socket accepts before the pid file is written; an answered
	// request means pmcd is serving, by when the file must be there.
	if _, err := os.Stat(filepath.Join(dir, "pcp_run_dir", "pmcd.pid")); err != nil {
		t.Errorf("no pmcd.pid: %v", err)
	}
	// The whole namespace walks, every name resolving to a descriptor.
	if out := info(pcpInfo, pcpEnv, "-m", "kernel.all.cpu", "mem.util", "sample.secret", "pmcd.agent"); strings.Contains(out, "Error") || !strings.Contains(out, "sample.secret.foo.bar.three PMID: 29.0.1003") {
		t.Errorf("pminfo -m:\n%s", out)
	}
}

// waitListening waits until something accepts on port, failing if the
// process exits first.
func waitListening(t *testing.T, port int, exited <-chan error, stderr fmt.Stringer) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), time.Second)
		if err == nil {
			c.Close()
			return
		}
		select {
		case err := <-exited:
			t.Fatalf("pmcd exited: %v\n%s", err, stderr)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("pmcd not listening on %d: %s", port, stderr)
		}
	}
}

// withoutPCP drops PCP_ and PMCD_ settings from env.
func withoutPCP(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PCP_") && !strings.HasPrefix(kv, "PMCD_") {
			out = append(out, kv)
		}
	}
	return out
}
