package testbed

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childNamed finds the process named comm whose parent is ppid.
func childNamed(t *testing.T, ppid int, comm string) int {
	t.Helper()
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(b)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open {
			continue
		}
		f := strings.Fields(s[close+1:])
		if len(f) < 2 || s[open+1:close] != comm || f[1] != strconv.Itoa(ppid) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(d))
		return pid
	}
	t.Fatalf("no %s under pid %d", comm, ppid)
	return 0
}

// TestToolsOutwaitPMCD: the tools a bed runs wait for pmcd longer than
// pmcd waits for an agent, and pmcd itself keeps libpcp's default. With
// the sample agent stopped for longer than libpcp's default request
// timeout (10 s), PCP's pminfo run with the bed's environment still gets
// its value once the agent goes on; at the default it printed "Timeout
// waiting for a response from PMCD" while pmcd was still waiting.
func TestToolsOutwaitPMCD(t *testing.T) {
	p := StartPMCD(t, Options{})
	var toolSecs int
	for _, kv := range p.Env() {
		if v, ok := strings.CutPrefix(kv, "PMCD_REQUEST_TIMEOUT="); ok {
			toolSecs, _ = strconv.Atoi(v)
		}
	}
	pmcdSecs, _ := strconv.Atoi(agentTimeout)
	if toolSecs <= pmcdSecs || time.Duration(toolSecs)*time.Second >= RunTimeout {
		t.Fatalf("tools' PMCD_REQUEST_TIMEOUT %d s: want above pmcd's agent timeout (%d s) and below RunTimeout (%v)", toolSecs, pmcdSecs, RunTimeout)
	}
	env, err := os.ReadFile("/proc/" + strconv.Itoa(p.PID()) + "/environ")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(env, []byte("PMCD_REQUEST_TIMEOUT=")) {
		t.Errorf("pmcd runs with the tools' PMCD_REQUEST_TIMEOUT")
	}

	want := promisedOne(t, p)
	agent := childNamed(t, p.PID(), "pmdasample")
	if err := syscall.Kill(agent, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	cont := func() { syscall.Kill(agent, syscall.SIGCONT) }
	defer cont()
	done := make(chan Result, 1)
	go func() {
		done <- p.RunContext(context.Background(), nil, "pminfo", "-h", p.Host(), "-f", "sample.long.one")
	}()
	// Longer than libpcp's default request timeout, shorter than the
	// bed's pmcd waits for the agent: at the default the tool has given
	// up by now; with the bed's timeout it is still waiting.
	time.Sleep(12 * time.Second)
	cont()
	res := <-done
	if res.Err != nil {
		t.Fatalf("pminfo with the agent held for 12 s: %v\n%s", res.Err, p.Logs())
	}
	if got := valueOf(t, res.Stdout, "sample.long.one"); got != want {
		t.Errorf("sample.long.one = %s, want %s", got, want)
	}
}
