package cgroup

import (
	"context"
	"flag"
	"log"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gopcp/gopcp/agents/proc/acct"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
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

// testAgent serves just the cgroup.* and acct.* metrics in domain 3,
// routing by cluster as the proc agent does, with pmdaproc's credential
// rules for acct: its records are read only for clients whose user pmcd
// passed on, and only root may store its controls.
type testAgent struct {
	s  *Source
	ac *acct.Source

	mu   sync.Mutex
	cur  pmda.Client            // the client of the request being answered
	uids map[pmda.Client]uint32 // users of clients on the Unix socket
}

func (a *testAgent) BeginRequest(_ context.Context, c pmda.Client, _ pdu.Type, _ uint32) error {
	a.mu.Lock()
	a.cur = c
	a.mu.Unlock()
	return nil
}

func (a *testAgent) Attribute(c pmda.Client, key pdu.AttrKey, value []byte) error {
	if key != pdu.AttrUserID {
		return nil
	}
	uid, err := strconv.ParseUint(strings.TrimRight(string(value), "\x00"), 10, 32)
	if err != nil {
		return err
	}
	a.mu.Lock()
	a.uids[c] = uint32(uid)
	a.mu.Unlock()
	return nil
}

func (a *testAgent) EndContext(c pmda.Client) {
	a.mu.Lock()
	delete(a.uids, c)
	a.mu.Unlock()
}

// uid is the user of client c, if pmcd passed it on.
func (a *testAgent) uid(c pmda.Client) (uint32, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	u, ok := a.uids[c]
	return u, ok
}

func (a *testAgent) Refresh(_ context.Context, pmids []pcp.PMID) error {
	a.s.Refresh(pmids)
	a.mu.Lock()
	c := a.cur
	a.mu.Unlock()
	for _, id := range pmids {
		if id.Cluster() == acct.Cluster {
			if _, known := a.uid(c); known {
				a.ac.Refresh()
			}
			break
		}
	}
	return nil
}

func (a *testAgent) Fetch(_ context.Context, m *pmda.Metric, inst int32) (pcp.Atom, error) {
	if m.Desc.PMID.Cluster() == acct.Cluster {
		return a.ac.Fetch(m, inst)
	}
	return a.s.Fetch(m, inst)
}

func (a *testAgent) Instances(_ context.Context, c pmda.Client, indom pcp.InDom) ([]pmda.Instance, error) {
	if indom.Serial() == acct.InDomSerial {
		if _, known := a.uid(c); known {
			a.ac.Refresh()
		}
		return a.ac.Instances(), nil
	}
	if HasInDom(indom.Serial()) {
		a.s.RefreshInDom(indom)
	}
	return a.s.Instances(indom)
}

func (a *testAgent) Store(_ context.Context, c pmda.Client, set *pcp.ValueSet) error {
	if set.PMID.Cluster() == acct.Cluster {
		if u, known := a.uid(c); !known || u != 0 {
			return pcp.ErrPermission
		}
		return a.ac.Store(set)
	}
	return pcp.ErrPermission
}

// newTestAgent builds the agent over root, with acct's files as PCP's
// agent would have them from pcp.conf and the environment.
func newTestAgent(root string, logger *log.Logger) (*pmda.Agent, error) {
	s := New(Options{Root: root})
	ac := acct.New(acct.Options{SystemFile: os.Getenv("PCP_PACCT_SYSTEM_PATH"),
		PrivateFile: os.Getenv("PCP_VAR_DIR") + "/pmcd/pacct"})
	return pmda.New(pmda.Config{Name: "proc", Domain: Domain, Metrics: append(s.Metrics(), ac.Metrics()...),
		InDoms: append(s.InDoms(), ac.InDoms()...), Fetcher: &testAgent{s: s, ac: ac, uids: map[pmda.Client]uint32{}},
		Flags: pdu.FlagAuth, Log: logger})
}

func runAgent(args []string) int {
	opts := pmda.DaemonOptions{Domain: Domain, LogFile: "proc.log"}
	fs := flag.NewFlagSet("proc", flag.ContinueOnError)
	opts.Flags(fs)
	root := os.Getenv("GOPCP_CGROUP_TEST_ROOT")
	return opts.Main(fs, args, func(logger *log.Logger) (*pmda.Agent, error) { return newTestAgent(root, logger) })
}
