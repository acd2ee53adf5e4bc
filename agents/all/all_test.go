package all

import (
	"runtime"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pmda"
)

// TestRegistered checks that every agent file here registers an agent that
// builds, and that closing it (pmda.Agent.Close, as its owner does) leaves
// no goroutine running the agents' code.
func TestRegistered(t *testing.T) {
	// The in-process trace agent listens for programs when built: on a
	// port of the system's choosing here, never PCP's 4323, which a
	// real pmdatrace beside this test may want.
	t.Setenv("PCP_TRACE_PORT", "0")
	names := pmda.Registered()
	if len(names) == 0 {
		t.Fatal("no agents registered")
	}
	for _, entry := range names {
		a, err := pmda.NewRegistered(entry, 250)
		if err != nil || a == nil {
			t.Errorf("%s: %v", entry, err)
			continue
		}
		if err := a.Close(); err != nil {
			t.Errorf("%s: Close: %v", entry, err)
		}
		if g := agentGoroutines(); g != "" {
			t.Errorf("%s: goroutines left after Close:\n%s", entry, g)
		}
	}
}

// agentGoroutines is the stacks of the goroutines with a frame in an
// agent package's code. One that has left that code is not shown even
// if it has not yet exited, so no waiting is needed.
func agentGoroutines() string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out strings.Builder
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "\ngithub.com/gopcp/gopcp/agents/") && !strings.Contains(g, "agents/all.agentGoroutines(") {
			out.WriteString(g + "\n\n")
		}
	}
	return out.String()
}
