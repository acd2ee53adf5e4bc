package pmcd

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmns"
)

// agentPID is the process id of the daemon agent of domain, 0 when it is
// not running.
func agentPID(s *Server, domain uint32) int {
	a := s.st().agents[domain]
	a.mu.Lock()
	defer a.mu.Unlock()
	if d, ok := a.b.(*daemon); ok && d.cmd != nil && d.cmd.Process != nil {
		return d.cmd.Process.Pid
	}
	return 0
}

// TestKilledAgentRestartedAfterRequest SIGKILLs an idle pipe agent: as
// with PCP's pmcd (TestNoticesAsPCP compares the two), the death is
// found by the next request to the agent, which fails, and the agent is started again at once,
// so the request after it is answered.
func TestKilledAgentRestartedAfterRequest(t *testing.T) {
	t.Parallel()
	killedAgentRestarted(t, false)
}

// TestKilledAgentOtherClientLeaves: a client leaving while an agent is
// dead does not make the agent's next request PM_ERR_NOAGENT; it fails
// as the request finding the agent dead fails, as with PCP's pmcd, which
// ignores the outcome of its context-end notices.
func TestKilledAgentOtherClientLeaves(t *testing.T) {
	t.Parallel()
	killedAgentRestarted(t, true)
}

func killedAgentRestarted(t *testing.T, leave bool) {
	tree, err := pmns.Parse(strings.NewReader(agentsPMNS), pmns.Options{})
	if err != nil {
		t.Fatal(err)
	}
	env, err := exec.LookPath("env")
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseConf(strings.NewReader(fmt.Sprintf("broken 251 pipe binary %s %s=well %s\n", env, testAgentEnv, os.Args[0])), "test")
	if err != nil {
		t.Fatal(err)
	}
	srv := &Server{PMNS: tree, Conf: c, AutoRestart: true}
	host := serveOn(t, srv)
	_, r, w := dial(t, host)
	broken := pcp.NewPMID(251, 0, 0)
	fetch := func() int32 {
		_, res := fetchAfterChanges(t, r, w, broken)
		return res.Sets[0].NumVal
	}
	if n := fetch(); n != 1 {
		t.Fatalf("before the kill, the fetch gave %d", n)
	}
	first := agentPID(srv, 251)
	if first == 0 {
		t.Fatal("no agent process")
	}
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the agent's process to end", func() (bool, string) {
		return syscall.Kill(first, 0) != nil || zombie(first), "running"
	})
	if leave {
		// Another client comes and goes: pmcd's notice of its end
		// cannot reach the dead agent, which PCP's pmcd takes as no
		// finding. one client left says the notices are done
		// (a client's end notices come before it is counted out).
		other, _, _ := dial(t, host)
		other.Close()
		waitFor(t, "the other client to be gone", func() (bool, string) {
			srv.clientsMu.Lock()
			n := len(srv.clients)
			srv.clientsMu.Unlock()
			return n == 1, fmt.Sprint(n, " clients")
		})
	}
	// -EPIPE as PCP's pmcd gives it; PM_ERR_IPC when the request was
	// written all the same, because a process this test binary was
	// starting meanwhile (another test's agent) still held a copy of
	// the pipe's read end between its fork and its exec.
	if n := fetch(); n != -int32(syscall.EPIPE) && n != int32(pcp.ErrIPC) {
		t.Errorf("the fetch finding the agent dead gave %d, want %d or %d", n, -int32(syscall.EPIPE), int32(pcp.ErrIPC))
	}
	if n := fetch(); n != 1 {
		t.Errorf("after the restart, the fetch gave %d", n)
	}
	if pid := agentPID(srv, 251); pid == 0 || pid == first {
		t.Errorf("agent process %d after the restart, %d before", pid, first)
	}
}

// zombie says whether pid has exited but not been waited for.
func zombie(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(f) > 0 && f[0] == "Z"
}

// TestRestartDelay: an agent is restarted at once unless pmcd restarted
// it under a minute ago, when it waits until a minute after that
// restart; PCP's pmcd has the same minute, for all agents at once.
func TestRestartDelay(t *testing.T) {
	t.Parallel()
	now := time.Unix(1e9, 0)
	for _, tc := range []struct {
		name        string
		lastRestart time.Time
		want        time.Duration
	}{
		{"never restarted", time.Time{}, 0},
		{"restarted long ago", now.Add(-time.Hour), 0},
		{"restarted a minute ago", now.Add(-time.Minute), 0},
		{"restarted 10 s ago", now.Add(-10 * time.Second), 50 * time.Second},
		{"restarted just now", now, time.Minute},
	} {
		if got := restartDelay(now, tc.lastRestart); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// waitFor polls check until it holds, failing the test after 45 seconds
// (well under the minute an agent would have waited before).
func waitFor(t *testing.T, what string, check func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for {
		ok, last := check()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: still %s", what, last)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
