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
	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// agentEnv, set in the environment of a test binary pmcd starts, makes
// the binary the test-only agent instead of running tests.
const agentEnv = "GOPCP_CGROUP_TEST_AGENT"

// pacctEnv names the accounting file the test agent reads instead of
// pcp.conf's.
const pacctEnv = "GOPCP_CGROUP_TEST_PACCT"

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
	s       *Source
	ac      *acct.Source
	metrics map[pcp.PMID]*pmda.Metric

	mu       sync.Mutex
	cur      pmda.Client            // the client of the request being answered
	fetching bool                   // whether that request is a fetch
	uids     map[pmda.Client]uint32 // users of clients on the Unix socket
}

func (a *testAgent) BeginRequest(_ context.Context, c pmda.Client, t pdu.Type, _ uint32) error {
	a.mu.Lock()
	a.cur, a.fetching = c, t == pdu.TypeFetch
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

// FetchSet routes cgroup PMIDs to the Source's FetchSet, as the proc
// agent (a SetFetcher) does; acct's values go one at a time.
func (a *testAgent) FetchSet(_ context.Context, _ pmda.Client, pmid pcp.PMID, pv pmda.ProfileView, add func(int32, pcp.Type, *pcp.Atom) error) error {
	if HasCluster(pmid.Cluster()) {
		return a.s.FetchSet(pmid, pv, add)
	}
	m := a.metrics[pmid]
	if m == nil {
		return pcp.ErrPMID
	}
	if m.Desc.InDom == pcp.InDomNull {
		v, err := a.ac.Fetch(m, pcp.InstNull)
		if err != nil {
			return err
		}
		return add(pcp.InstNull, m.Desc.Type, &v)
	}
	n := 0
	for _, in := range a.ac.Instances() {
		if !pv.Selects(m.Desc.InDom, in.ID) {
			continue
		}
		if v, err := a.ac.Fetch(m, in.ID); err == nil {
			if err := add(in.ID, m.Desc.Type, &v); err != nil {
				return err
			}
			n++
		}
	}
	if n == 0 {
		return pmda.ErrNoValue
	}
	return nil
}

// Instances answers instance requests, refreshing first as pmdaproc's
// instance callback does; within a fetch the refresh has been done.
func (a *testAgent) Instances(_ context.Context, c pmda.Client, indom pcp.InDom) ([]pmda.Instance, error) {
	a.mu.Lock()
	fetching := a.fetching
	a.mu.Unlock()
	if indom.Serial() == acct.InDomSerial {
		if _, known := a.uid(c); known && !fetching {
			a.ac.Refresh()
		}
		return a.ac.Instances(), nil
	}
	if HasInDom(indom.Serial()) && !fetching {
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
	// pcp.conf's settings, the environment first, as pmdaproc reads them.
	system, _ := pcpconf.Get("PCP_PACCT_SYSTEM_PATH")
	if f := os.Getenv(pacctEnv); f != "" {
		system = f // TestAcctValuesMatchPCP: PCP's private file
	}
	varDir, _ := pcpconf.Get("PCP_VAR_DIR")
	ac := acct.New(acct.Options{SystemFile: system, PrivateFile: varDir + "/pmcd/pacct"})
	metrics := append(s.Metrics(), ac.Metrics()...)
	byPMID := map[pcp.PMID]*pmda.Metric{}
	for i := range metrics {
		byPMID[metrics[i].Desc.PMID] = &metrics[i]
	}
	return pmda.New(pmda.Config{Name: "proc", Domain: Domain, Metrics: metrics, InDoms: append(s.InDoms(), ac.InDoms()...),
		Fetcher: &testAgent{s: s, ac: ac, metrics: byPMID, uids: map[pmda.Client]uint32{}},
		Flags:   pdu.FlagAuth, Log: logger})
}

func runAgent(args []string) int {
	opts := pmda.DaemonOptions{Domain: Domain, LogFile: "proc.log"}
	fs := flag.NewFlagSet("proc", flag.ContinueOnError)
	opts.Flags(fs)
	root := os.Getenv("GOPCP_CGROUP_TEST_ROOT")
	return opts.Main(fs, args, func(logger *log.Logger) (*pmda.Agent, error) { return newTestAgent(root, logger) })
}
