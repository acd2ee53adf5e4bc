package cgroup

import (
	"context"
	"flag"
	"log"
	"os"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// agentEnv, set in the environment of a test binary pmcd starts, makes
// the binary the test-only agent instead of running tests.
const agentEnv = "GOPCP_CGROUP_TEST_AGENT"

func TestMain(m *testing.M) {
	if os.Getenv(agentEnv) == "1" {
		os.Exit(runAgent(os.Args[1:]))
	}
	os.Exit(testbed.Main(m))
}

// testAgent serves just this package's metrics in domain 3, routing as
// the proc agent does.
type testAgent struct{ s *Source }

func (a *testAgent) Refresh(_ context.Context, pmids []pcp.PMID) error {
	a.s.Refresh(pmids)
	return nil
}

func (a *testAgent) Fetch(_ context.Context, m *pmda.Metric, inst int32) (pcp.Atom, error) {
	return a.s.Fetch(m, inst)
}

func (a *testAgent) Instances(_ context.Context, _ pmda.Client, indom pcp.InDom) ([]pmda.Instance, error) {
	if HasInDom(indom.Serial()) {
		a.s.RefreshInDom(indom)
	}
	return a.s.Instances(indom)
}

// newTestAgent builds the agent over root.
func newTestAgent(root string, logger *log.Logger) (*pmda.Agent, error) {
	s := New(Options{Root: root})
	return pmda.New(pmda.Config{Name: "proc", Domain: Domain, Metrics: s.Metrics(), InDoms: s.InDoms(),
		Fetcher: &testAgent{s}, Log: logger})
}

func runAgent(args []string) int {
	opts := pmda.DaemonOptions{Domain: Domain, LogFile: "proc.log"}
	fs := flag.NewFlagSet("proc", flag.ContinueOnError)
	opts.Flags(fs)
	root := os.Getenv("GOPCP_CGROUP_TEST_ROOT")
	return opts.Main(fs, args, func(logger *log.Logger) (*pmda.Agent, error) { return newTestAgent(root, logger) })
}
