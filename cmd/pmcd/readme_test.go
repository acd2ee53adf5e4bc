package main

import (
	"bytes"
	"context"
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

// readmePort is the port README's example of a pmcd beside PCP's uses.
const readmePort = "44330"

var (
	goRun = regexp.MustCompile(`^go run \./cmd/([a-z_]+)$`)
	// a value line of pmval, or of pminfo -f
	aValue = regexp.MustCompile(`(?m)^ *([0-9.]+ +)+$|value [0-9]`)
)

// TestReadmeOtherPort runs README's commands for a pmcd on another port
// as a new user types them (the port swapped for a free one, private
// PCP directories): pmcd started with -p, then every client command of
// README that names the port, each of which must read kernel.all.load or
// hinv.ncpu from this pmcd; then the pid README says to signal is
// pmcd's own, and SIGTERM to it stops pmcd.
func TestReadmeOtherPort(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(readme), "\n") {
		if l = strings.TrimSpace(l); strings.Contains(l, readmePort) && !strings.HasPrefix(l, "`") &&
			!strings.Contains(l, "cmd/pmcd") && strings.Contains(l, " -h ") {
			lines = append(lines, l)
		}
	}
	if len(lines) < 3 {
		t.Fatalf("README names the other port in %d client commands, want 3 or more", len(lines))
	}
	pmcdPath, err := testbed.GoPMCDPath()
	if err != nil {
		t.Fatal(err)
	}
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	dir := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PCP_") && !strings.HasPrefix(kv, "PMCD_") {
			env = append(env, kv)
		}
	}
	// PCP_VAR_DIR too: the built-in agents keep their instance caches
	// and the proc agent its accounting file there, never in the
	// system's.
	for _, v := range []string{"PCP_RUN_DIR", "PCP_LOG_DIR", "PCP_TMP_DIR", "PCP_VAR_DIR"} {
		d := filepath.Join(dir, strings.ToLower(v))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		env = append(env, v+"="+d)
	}
	cmd := exec.Command(pmcdPath, "-p", strconv.Itoa(port))
	cmd.Env, cmd.Dir = env, dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stopped := false
	defer func() {
		if !stopped {
			cmd.Process.Kill()
			<-exited
		}
	}()
	waitListening(t, port, exited, &stderr)

	for _, l := range lines {
		l = strings.ReplaceAll(l, readmePort, strconv.Itoa(port))
		if i := strings.Index(l, "#"); i >= 0 {
			l = strings.TrimSpace(l[:i])
		}
		words := strings.Fields(l)
		var lineEnv []string
		for len(words) > 0 && strings.Contains(words[0], "=") {
			lineEnv, words = append(lineEnv, words[0]), words[1:]
		}
		var prog string
		if len(words) > 2 && goRun.MatchString(strings.Join(words[:3], " ")) {
			name := goRun.FindStringSubmatch(strings.Join(words[:3], " "))[1]
			prog, words = pcptest.GoCommand(t, "github.com/gopcp/gopcp/cmd/"+name), words[3:]
		} else {
			prog, words = pcptest.NeedTool(t, words[0]), words[1:]
		}
		// pmval reports until stopped: its first value is enough
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		c := exec.CommandContext(ctx, prog, words...)
		c.Env = append(append(withoutPCP(os.Environ()), lineEnv...), "PCP_DERIVED_CONFIG=")
		outFile, err := os.Create(filepath.Join(dir, "out"))
		if err != nil {
			t.Fatal(err)
		}
		c.Stdout, c.Stderr = outFile, outFile
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		var out []byte
		ok := false
		for !ok && ctx.Err() == nil {
			time.Sleep(100 * time.Millisecond)
			out, _ = os.ReadFile(outFile.Name())
			ok = aValue.Match(out)
		}
		c.Process.Kill()
		c.Wait()
		outFile.Close()
		cancel()
		if !ok {
			t.Errorf("README's %q: no value from our pmcd on port %d:\n%s", l, port, out)
		}
	}

	pidFile := filepath.Join(dir, "pcp_run_dir", "pmcd.pid")
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); pid != cmd.Process.Pid {
		t.Fatalf("%s holds %q, pmcd's pid is %d", pidFile, b, cmd.Process.Pid)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
		stopped = true
	case <-time.After(30 * time.Second):
		t.Fatal("pmcd still running 30 s after SIGTERM to the pid in pmcd.pid")
	}
}
