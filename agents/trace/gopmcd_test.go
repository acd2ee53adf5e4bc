package trace_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/trace"
)

// TestUnderGoPMCD runs the agent under gopcp's pmcd both ways pmcd.conf
// can name it: a pipe line running cmd/pmdatrace, and a dso line naming
// the registered "trace_init" (its port from PCP_TRACE_PORT).
func TestUnderGoPMCD(t *testing.T) {
	_, agent, _ := programs(t)
	in := testbed.Need(t)
	root := pmnsRoot(t, in)
	// The dso agent's port is the test's, held until it ends so that no
	// other bed of this process is given it; the pipe agent's is the
	// bed's (testbed.PortArg).
	dsoPort, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	for _, c := range []struct {
		name  string
		port  int
		agent testbed.Agent
		env   []string
	}{
		{"pipe", 0, testbed.PipeAgent("trace", 10, root, agent, "-d", "10", "-I", testbed.PortArg), nil},
		{"dso", dsoPort, testbed.GoDSOAgent("trace", 10, "trace_init", root), []string{"PCP_TRACE_PORT=" + strconv.Itoa(dsoPort)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			bed := testbed.StartGoPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), c.agent}, Env: c.env})
			if c.port == 0 {
				c.port = bed.AgentPort("trace")
			}
			waitPort(t, c.port)
			cl, err := trace.New(trace.Options{Host: "127.0.0.1", Port: c.port})
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			for i := 0; i < 3; i++ {
				if err := cl.Observe(context.Background(), "depth", float64(i)); err != nil {
					t.Fatal(err)
				}
			}
			r := bed.Run("pminfo", "-f", "trace.observe.count", "trace.observe.value", "trace.control.port")
			if r.Err != nil {
				t.Fatalf("pminfo: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
			}
			h := bed.Run("pminfo", "-tT", "trace")
			if h.Err != nil || strings.Count(h.Stdout, "Help:\n") != 20 || strings.Contains(h.Stdout, "<none>") {
				t.Errorf("help of the 20 metrics:\n%s%s", h.Stdout, h.Stderr)
			}
			for _, want := range []string{`inst [1 or "depth"] value 3`, `inst [1 or "depth"] value 2`, "value " + strconv.Itoa(c.port)} {
				if !strings.Contains(r.Stdout, want) {
					t.Errorf("no %q in\n%s", want, r.Stdout)
				}
			}
		})
	}
}
